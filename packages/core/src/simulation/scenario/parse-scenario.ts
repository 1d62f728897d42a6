import { isNode, LineCounter, parseDocument } from 'yaml';
import { fieldErrors } from '../../apis/field-errors.js';
import { type Scenario, scenarioSchema } from './scenario-schema.js';

/** One problem with a scenario file, located by file, line (when known) and field path. */
export interface ScenarioError {
  readonly file: string;
  /** 1-based line of the offending field, when the YAML locates it. */
  readonly line?: number;
  /** Field path such as `workloads.deployments[0].replicas`; `''` for the document itself. */
  readonly path: string;
  readonly message: string;
}

export type ScenarioParse =
  | { readonly scenario: Scenario; readonly errors: readonly [] }
  | { readonly scenario?: undefined; readonly errors: readonly ScenarioError[] };

/** `file:line: path: message`, the way the CLI prints a scenario problem. */
export function formatScenarioError(e: ScenarioError): string {
  const where = e.line === undefined ? e.file : `${e.file}:${e.line}`;
  return e.path === '' ? `${where}: ${e.message}` : `${where}: ${e.path}: ${e.message}`;
}

/**
 * Reads one scenario from YAML (or JSON) text. Never throws for bad input: syntax errors and
 * every schema violation come back as errors naming `file`, the line and the field.
 */
export function parseScenario(text: string, file: string): ScenarioParse {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        file,
        line: lines.linePos(e.pos[0]).line,
        path: '',
        message: e.message.split('\n')[0] ?? e.message,
      })),
    };
  }
  const value: unknown = doc.toJS();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { errors: [{ file, line: 1, path: '', message: 'a scenario must be a YAML mapping' }] };
  }
  const parsed = scenarioSchema.safeParse(value);
  if (parsed.success) return { scenario: parsed.data, errors: [] };
  return {
    errors: fieldErrors(parsed.error.issues).map((e) => {
      const line = lineOf(doc, lines, e.segments);
      return { file, ...(line === undefined ? {} : { line }), path: e.path, message: e.message };
    }),
  };
}

/** The line of the deepest node on the path that exists in the document. */
function lineOf(doc: ReturnType<typeof parseDocument>, lines: LineCounter, segments: readonly PropertyKey[]) {
  for (let n = segments.length; n >= 0; n--) {
    const node = doc.getIn(segments.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range !== undefined && node.range !== null) {
      return lines.linePos(node.range[0]).line;
    }
  }
  return undefined;
}
