import { isDeepStrictEqual } from 'node:util';
import type { ConversionWarning } from '@nodewright/core/apis';
import {
  formatManifestError,
  formatObjectError,
  type Manifest,
  type ManifestError,
  type ManifestSource,
  manifestOf,
  objectId,
  parseFieldPath,
} from '@nodewright/core/manifests';
import { type Command, InputOptions, InputOptionsHelp } from '../command.js';
import { noObjectsError, parseInputs, readInputs } from '../inputs.js';
import { writeErrors } from '../io.js';
import { toYamlStream } from '../yaml-stream.js';
import { CommandSummaries } from './summaries.js';

/** How errors name a converted object no input object corresponds to. */
const ConvertedName = '<converted>';

/** `nodewright convert`: karpenter.sh/v1beta1 (and provider v1beta1) manifests to v1. */
export const convertCommand: Command = {
  name: 'convert',
  summary: CommandSummaries.convert,
  usage: 'nodewright convert -f FILE... [-R]',
  help: `usage: nodewright convert -f FILE... [-R]

Upgrades karpenter.sh/v1beta1 NodePools and karpenter.k8s.aws/v1beta1 EC2NodeClasses to
v1 and prints every object, converted or not, as one multi-document YAML stream on
stdout. Objects already at v1 pass through unchanged. What cannot be carried over is a
warning on stderr:

  FILE: Kind/name: field: message (line N)

The output is validated as "nodewright validate" would; if it does not pass, the
errors are printed on stderr, nothing is printed on stdout, and the exit status is 1.

Options:
${InputOptionsHelp}
  -h, --help           Show this help.

Exit status: 0 converted (warnings may have been printed); 1 an input is unreadable or
invalid, or the result does not validate; 2 usage error.
`,
  options: InputOptions,
  async run({ values }, context) {
    const { io, services } = context;
    const input = await readInputs(values, context);
    const empty = noObjectsError(input);
    if (input.errors.length > 0 || empty !== undefined) {
      writeErrors(io.stderr, empty === undefined ? input.errors.map(formatManifestError) : [empty]);
      return 1;
    }

    const result = services.convert(input.manifests.map((m) => m.object));
    const byId = new Map<string, Manifest>();
    for (const manifest of input.manifests) if (!byId.has(manifest.id)) byId.set(manifest.id, manifest);

    writeErrors(
      io.stderr,
      result.warnings.map((w) => formatWarning(w, byId)),
    );

    // Conversion is one object in, one out; match by position where Kind/name does not match.
    const byPosition = result.objects.length === input.manifests.length ? input.manifests : [];
    const converted = result.objects.map((object, index) =>
      convertedManifest(object, index, byId, byPosition[index]),
    );
    const headerErrors = converted.flatMap((c) => ('errors' in c ? c.errors : []));
    const manifests = converted.flatMap((c) => ('manifest' in c ? [c.manifest] : []));
    // Objects of kinds nodewright does not read pass through as they are (--strict refuses them).
    const { errors } = parseInputs(services, manifests, values);
    const problems = [...headerErrors, ...errors];
    if (problems.length > 0) {
      writeErrors(io.stderr, problems.map(formatManifestError));
      return 1;
    }
    io.stdout.write(toYamlStream(result.objects));
    return 0;
  },
};

/** A warning in the error format, naming the input file (and line) the object came from. */
function formatWarning(warning: ConversionWarning, byId: ReadonlyMap<string, Manifest>): string {
  const source = byId.get(warning.object)?.source;
  const line = source?.lineOf(parseFieldPath(warning.field));
  return formatObjectError(
    source?.file ?? ConvertedName,
    warning.object,
    warning.field,
    warning.message,
    line,
  );
}

/**
 * A converted object as a Manifest for validation. It keeps the file of the input object with
 * the same Kind/name (else of the input at the same position) and that object's lines: a field
 * conversion left in place has its own line, a moved or added one the line of its nearest
 * ancestor in the file, so every error still names a line.
 */
function convertedManifest(
  object: Record<string, unknown>,
  index: number,
  byId: ReadonlyMap<string, Manifest>,
  samePosition: Manifest | undefined,
): { manifest: Manifest } | { errors: ManifestError[] } {
  const kind = typeof object.kind === 'string' ? object.kind : '<no kind>';
  const metadata = object.metadata as { name?: unknown } | undefined;
  const name = typeof metadata?.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
  const original = (name === undefined ? undefined : byId.get(objectId(kind, name, 0))) ?? samePosition;
  if (original !== undefined && isDeepStrictEqual(original.object, object)) return { manifest: original };
  const source: ManifestSource = original
    ? original.source
    : { file: ConvertedName, document: 0, item: index, ordinal: index + 1, line: 1, lineOf: () => undefined };
  return manifestOf(object, source);
}
