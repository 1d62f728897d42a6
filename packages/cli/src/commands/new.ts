import { resolve } from 'node:path';
import { type Command, UsageError } from '../command.js';
import { writeErrors, writeLines } from '../io.js';
import { providerNames } from '../scaffold/provider-names.js';
import { providerPackageName } from '../scaffold/provider-package.js';
import { providerFiles, TargetNotEmptyError, writeFiles } from '../scaffold/write-provider.js';
import { packageVersion } from '../version.js';
import { CommandSummaries } from './summaries.js';

/** `nodewright new provider NAME`: writes a standalone provider package to start from. */
export const newCommand: Command = {
  name: 'new',
  summary: CommandSummaries.new,
  usage: 'nodewright new provider NAME [--dir DIR]',
  help: `usage: nodewright new provider NAME [--dir DIR]

Writes a standalone provider package into DIR (default ./NAME), which must be missing or
empty: a NodeClass (zod schema and CRD), a CloudProvider over a stand-in cloud (an
in-memory cloud behind a small HTTP API, to replace with yours), the plug-in object as the
package's default export, a controller binary (runController), and the conformance suites
wired (describeProviderContract, describeClusterE2E) with a vitest config and a README
saying what to replace. It depends on @nodewright/core, @nodewright/cli and (for tests)
@nodewright/conformance at this CLI's version. Prints the files written, then the next steps.

NAME is a lower-case letter, then letters, digits and single dashes (at most 24
characters): the --provider value, the package name nodewright-provider-NAME, the
providerID scheme NAME:// and the NodeClass kind (my-cloud: MyCloudNodeClass).

Options:
  --dir DIR   Where to write the package; default ./NAME.
  -h, --help  Show this help.

Exit status: 0 written; 1 DIR is not empty or cannot be written; 2 usage error (an
invalid NAME included).
`,
  options: { dir: { type: 'string' } },
  positionals: { min: 2, max: 2 },
  async run({ values, positionals }, { io }) {
    const [what, name] = positionals as [string, string];
    if (what !== 'provider')
      throw new UsageError(`cannot make a new ${JSON.stringify(what)}; only "provider"`);
    let names: ReturnType<typeof providerNames>;
    try {
      names = providerNames(name);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const dir = resolve(io.cwd, typeof values.dir === 'string' ? values.dir : name);
    const files = await providerFiles(names, packageVersion());
    try {
      await writeFiles(dir, files);
    } catch (error) {
      const message = error instanceof TargetNotEmptyError ? error.message : `${dir}: ${String(error)}`;
      writeErrors(io.stderr, [message]);
      return 1;
    }
    writeLines(io.stdout, [
      ...files.map((f) => `${dir}/${f.path}`),
      '',
      `${providerPackageName(names)} written. Next:`,
      `  cd ${dir} && npm install && npm run build && npm test`,
      '  then replace the stand-in cloud as its README says; npm run test:e2e runs the cluster suite.',
    ]);
    return 0;
  },
};
