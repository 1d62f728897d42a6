import { formatManifestError } from '@nodewright/core/manifests';
import { type Command, InputOptions, InputOptionsHelp } from '../command.js';
import { noObjectsError, parseInputs, readInputs, skippedLine } from '../inputs.js';
import { writeErrors, writeLines } from '../io.js';
import { CommandSummaries } from './summaries.js';

/** `nodewright validate`: every object against its kind's schema and CRD rules. */
export const validateCommand: Command = {
  name: 'validate',
  summary: CommandSummaries.validate,
  usage: 'nodewright validate -f FILE... [-R]',
  help: `usage: nodewright validate -f FILE... [-R]

Checks every object against its kind's schema and the rules its CRD enforces (CEL
included). Prints "OK Kind/name" on stdout for each valid object; each problem is one
line on stderr:

  FILE: Kind/name: field.path: message (line N)

Objects of kinds nodewright does not read (Service, ConfigMap, ...) are skipped, one line
each on stderr (--strict makes them errors); a kind in nodewright's own API groups that
it does not know, and an unknown apiVersion of a known kind, are errors. Misspelt fields
are named with the field meant; karpenter.sh/v1beta1 objects are upgraded by
"nodewright convert", and v1beta1 fields in v1 objects say where v1 moved them. Objects
without a name show as Kind/<unnamed #N>, N being the object's position in its file.

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
    const { parsed, errors, skipped } = parseInputs(services, input.manifests, values);
    const problems = [...input.errors, ...errors];
    writeLines(
      io.stdout,
      parsed.map((p) => `OK ${p.manifest.id}`),
    );
    writeErrors(io.stderr, [...skipped.map(skippedLine), ...problems.map(formatManifestError)]);
    const empty = noObjectsError(input);
    if (empty !== undefined) {
      writeErrors(io.stderr, [empty]);
      return 1;
    }
    return problems.length > 0 ? 1 : 0;
  },
};
