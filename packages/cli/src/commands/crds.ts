import { join, resolve } from 'node:path';
import { systemErrorReason } from '@nodewright/core/manifests';
import type { Command } from '../command.js';
import { writeErrors, writeLines } from '../io.js';
import { joinYamlDocuments } from '../yaml-stream.js';
import { CommandSummaries } from './summaries.js';

/** `nodewright crds`: the CustomResourceDefinitions of every kind nodewright ships one for. */
export const crdsCommand: Command = {
  name: 'crds',
  summary: CommandSummaries.crds,
  usage: 'nodewright crds [--out DIR]',
  help: `usage: nodewright crds [--out DIR]

Prints the CustomResourceDefinitions of every kind nodewright ships one for (core and
provider kinds) as one multi-document YAML stream, apply-able with
"kubectl apply --server-side -f -".

Options:
  --out DIR   Write one file per CRD into DIR (created if missing) instead, and print
              the path of each file written.
  -h, --help  Show this help.

Exit status: 0 success; 1 a file could not be written; 2 usage error.
`,
  options: { out: { type: 'string' } },
  async run({ values }, { io, services }) {
    const definitions = services.registry.withCrds();
    const out = values.out;
    if (typeof out !== 'string') {
      io.stdout.write(joinYamlDocuments(definitions.map((d) => services.renderCrd(d))));
      return 0;
    }
    try {
      await services.fs.mkdirp(resolve(io.cwd, out));
    } catch (error) {
      writeErrors(io.stderr, [`${out}: cannot create directory: ${systemErrorReason(error)}`]);
      return 1;
    }
    let failed = false;
    for (const definition of definitions) {
      const path = join(out, services.crdFileName(definition));
      try {
        await services.fs.writeFile(resolve(io.cwd, path), services.renderCrd(definition));
        writeLines(io.stdout, [path]);
      } catch (error) {
        writeErrors(io.stderr, [`${path}: cannot write: ${systemErrorReason(error)}`]);
        failed = true;
      }
    }
    return failed ? 1 : 0;
  },
};
