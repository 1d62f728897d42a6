import { formatManifestError, parseManifests } from '@nodewright/core/manifests';
import { type Command, InputOptions, InputOptionsHelp } from '../command.js';
import { noObjectsError, readInputs } from '../inputs.js';
import { writeLines } from '../io.js';

/** `nodewright validate`: every object against its kind's schema and CRD rules. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'Check manifests against the schemas and rules the CRDs enforce',
  usage: 'nodewright validate -f FILE... [-R]',
  help: `usage: nodewright validate -f FILE... [-R]

Checks every object against its kind's schema and the rules its CRD enforces (CEL
included). Prints "OK Kind/name" on stdout for each valid object; each problem is one
line on stderr:

  FILE: Kind/name: field.path: message (line N)

An unknown kind or apiVersion is an error, never skipped; karpenter.sh/v1beta1 objects
are upgraded by "nodewright convert". Objects without a name show as
Kind/<unnamed #N>, N being the object's position in its file.

Options:
${InputOptionsHelp}
  -h, --help           Show this help.

Exit status: 0 all objects valid; 1 any object invalid or any input unreadable;
2 usage error.
`,
  options: InputOptions,
  async run({ values }, context) {
    const { io, services } = context;
    const input = await readInputs(values, context);
    const { parsed, errors } = parseManifests(services.registry, input.manifests, {
      unsupportedVersionHint: (apiVersion, kind) => services.unsupportedVersionHint(apiVersion, kind),
    });
    const problems = [...input.errors, ...errors];
    writeLines(
      io.stdout,
      parsed.map((p) => `OK ${p.manifest.id}`),
    );
    writeLines(io.stderr, problems.map(formatManifestError));
    const empty = noObjectsError(input);
    if (empty !== undefined) {
      writeLines(io.stderr, [empty]);
      return 1;
    }
    return problems.length > 0 ? 1 : 0;
  },
};
