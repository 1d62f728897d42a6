import { type Document, isNode, isScalar, LineCounter, parseAllDocuments } from 'yaml';
import { fieldErrors, formatFieldPath, parseFieldPath } from '../../apis/field-errors.js';
import { yamlDocumentValue, yamlSyntaxErrors } from '../../manifests/decode.js';
import { formatManifestError } from '../../manifests/format.js';
import { type ManifestError, objectId } from '../../manifests/manifest.js';
import { MaxNestingDepth, tooDeepPath } from '../../manifests/nesting.js';
import { binaryContentProblem } from '../../manifests/text-check.js';
import { type Scenario, scenarioSchema } from './scenario-schema.js';

/**
 * One problem with a scenario file, in the form of a manifest error so every command prints
 * problems alike: about the scenario's fields it names the scenario as `Scenario/name` (the
 * `name` field, `Scenario/<unnamed #1>` without one), a field path and the line.
 */
export type ScenarioError = ManifestError;

/** The kind scenario problems name, as `validate` names a manifest's kind. */
export const ScenarioKind = 'Scenario';

/** Where a parsed scenario's fields are, for problems found after parsing (e.g. its catalog). */
export interface ScenarioSource {
  readonly file: string;
  /** `Scenario/name`, as errors name the scenario. */
  readonly id: string;
  /** 1-based line of the field at the path segments, or of its nearest ancestor in the file. */
  lineOf(segments: readonly PropertyKey[]): number | undefined;
}

export type ScenarioParse =
  | { readonly scenario: Scenario; readonly source: ScenarioSource; readonly errors: readonly [] }
  | { readonly scenario?: undefined; readonly errors: readonly ScenarioError[] };

/** `FILE: Scenario/name: field: message (line N)`: the CLI's one error format. */
export function formatScenarioError(e: ScenarioError): string {
  return formatManifestError(e);
}

/** An error about a field of a parsed scenario, located in its file. */
export function scenarioFieldError(source: ScenarioSource, path: string, message: string): ScenarioError {
  const line = source.lineOf(parseFieldPath(path));
  return { file: source.file, object: source.id, path, message, ...(line === undefined ? {} : { line }) };
}

/**
 * Reads one scenario from YAML (or JSON) text. Never throws for bad input: non-text, syntax
 * errors, a file of several YAML documents and every schema violation (unknown fields with
 * the field most likely meant) come back as errors naming `file`, the line and the field.
 */
export function parseScenario(text: string, file: string): ScenarioParse {
  const binary = binaryContentProblem(text);
  if (binary !== undefined) return { errors: [{ file, message: binary.message, line: binary.line }] };
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: true });
  const docs: readonly Document[] = Array.isArray(documents) ? documents : [];
  const syntax = yamlSyntaxErrors(file, docs);
  if (syntax.length > 0) return { errors: syntax };
  const filled = docs.filter((d) => !isEmptyDocument(d));
  const lineOfDoc = (d: Document) => lines.linePos(d.contents?.range?.[0] ?? d.range?.[0] ?? 0).line;
  if (filled.length > 1) {
    const message = `a scenario file holds one YAML document, found ${filled.length} (separated by ---)`;
    return { errors: [{ file, message, line: lineOfDoc(filled[1]!) }] };
  }
  const doc = filled[0];
  if (doc === undefined) {
    return {
      errors: [
        { file, message: 'is empty: a scenario needs at least name, duration, catalog and nodePools' },
      ],
    };
  }
  const converted = yamlDocumentValue(file, doc, lines);
  if ('error' in converted) return { errors: [converted.error] };
  const { value } = converted;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const found = Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return {
      errors: [{ file, line: lineOfDoc(doc), message: `a scenario must be a YAML mapping, not ${found}` }],
    };
  }
  const name = (value as { name?: unknown }).name;
  const source: ScenarioSource = {
    file,
    id: objectId(ScenarioKind, typeof name === 'string' && name !== '' ? name : undefined, 1),
    lineOf: (segments) => lineOf(doc, lines, segments),
  };
  const deep = tooDeepPath(value);
  if (deep !== undefined) {
    const path = `${formatFieldPath(deep.slice(0, 6))}${deep.length > 6 ? '...' : ''}`;
    return { errors: [scenarioFieldError(source, path, `nested more than ${MaxNestingDepth} levels deep`)] };
  }
  const parsed = scenarioSchema.safeParse(value);
  if (parsed.success) return { scenario: parsed.data, source, errors: [] };
  return {
    errors: fieldErrors(parsed.error.issues, { schema: scenarioSchema }).map((e) => {
      const line = source.lineOf(e.segments);
      return {
        file,
        object: source.id,
        path: e.path,
        message: e.message,
        ...(line === undefined ? {} : { line }),
      };
    }),
  };
}

/** A document with nothing in it, or only `null` (e.g. after a trailing `---`). */
function isEmptyDocument(doc: Document): boolean {
  const root = doc.contents;
  return root === null || (isScalar(root) && root.value === null);
}

/** The line of the deepest node on the path that exists in the document. */
function lineOf(doc: Document, lines: LineCounter, segments: readonly PropertyKey[]): number | undefined {
  for (let n = segments.length; n >= 0; n--) {
    const node = doc.getIn(segments.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range !== undefined && node.range !== null) {
      return lines.linePos(node.range[0]).line;
    }
  }
  return undefined;
}
