import type { Document, LineCounter, Node } from 'yaml';
import { formatFieldPath } from '../apis/field-errors.js';
import {
  type Manifest,
  type ManifestError,
  type ManifestSet,
  type ManifestSource,
  objectId,
} from './manifest.js';
import { MaxNestingDepth, tooDeepPath } from './nesting.js';
import { binaryContentProblem } from './text-check.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * Decodes the text of one input into objects. The text is a stream of YAML documents
 * separated by `---`, or one JSON value. A document is an object, a `kind: List` (or typed
 * list such as `PodList`) whose `items` are objects, or an array of objects. Empty documents
 * (nothing, or only `null`) are skipped. Syntax errors, non-object documents and objects
 * without a string `apiVersion` and `kind` are errors; the other documents of the file are
 * still decoded.
 *
 * Text that is valid JSON is read with JSON.parse, many times faster than the YAML parser; the
 * lines error messages name are then found by parsing the text as YAML (JSON is YAML) only when
 * the first one is asked for. Anything else, including JSON with a syntax error (so the error
 * names its line), goes through the YAML parser.
 */
export function decodeManifests(file: string, text: string): ManifestSet {
  const binary = binaryContentProblem(text);
  if (binary !== undefined) {
    return { manifests: [], errors: [{ file, message: binary.message, line: binary.line }] };
  }
  return decodeJson(file, text) ?? decodeYaml(file, text);
}

/** Where one document's objects and their fields are in the text. */
interface DocumentPositions {
  /** 1-based line of the document's object, or of its list item `item`. */
  objectLine(item: number | undefined): number;
  /** 1-based line of a field of that object (or of its nearest ancestor in the text). */
  fieldLine(item: number | undefined, segments: readonly PropertyKey[]): number;
}

/** Collects the objects of one decoded document, numbering them across the file. */
class ManifestCollector {
  readonly manifests: Manifest[] = [];
  readonly errors: ManifestError[] = [];
  #ordinal = 0;

  constructor(readonly file: string) {}

  document(document: number, value: unknown, positions: DocumentPositions): void {
    const list = listOf(value);
    if (list === undefined) {
      this.#emit(document, value, positions, undefined, undefined);
      return;
    }
    list.items.forEach((raw, i) => {
      this.#emit(document, raw, positions, i, list.inherit);
    });
  }

  #emit(
    document: number,
    raw: unknown,
    positions: DocumentPositions,
    item: number | undefined,
    inherit: TypeOf | undefined,
  ): void {
    const file = this.file;
    if (!isPlainObject(raw)) {
      const where =
        item === undefined ? `document ${document + 1}` : `item ${item + 1} of document ${document + 1}`;
      this.errors.push({
        file,
        message: `${where} is ${describeValue(raw)}, expected an object`,
        line: positions.objectLine(item),
      });
      return;
    }
    this.#ordinal += 1;
    const deep = tooDeepPath(raw);
    if (deep !== undefined) {
      const kind = typeof raw.kind === 'string' ? raw.kind : (inherit?.kind ?? 'Object');
      const meta = raw.metadata;
      const name = isPlainObject(meta) && typeof meta.name === 'string' ? meta.name : undefined;
      this.errors.push({
        file,
        object: objectId(kind, name, this.#ordinal),
        path: shortPath(deep),
        message: `nested more than ${MaxNestingDepth} levels deep`,
        line: positions.objectLine(item),
      });
      return;
    }
    const object = inherit ? { apiVersion: inherit.apiVersion, kind: inherit.kind, ...raw } : raw;
    const source: ManifestSource = {
      file,
      document,
      ...(item === undefined ? {} : { item }),
      ordinal: this.#ordinal,
      // A getter: for JSON input, finding the line parses the text again.
      get line() {
        return positions.objectLine(item);
      },
      lineOf: (segments) => positions.fieldLine(item, segments),
    };
    const result = manifestOf(object, source);
    if ('manifest' in result) this.manifests.push(result.manifest);
    else this.errors.push(...result.errors);
  }
}

/** The objects of a text that is one valid JSON value, or undefined to read it as YAML. */
function decodeJson(file: string, text: string): ManifestSet | undefined {
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let parsed: DocumentPositions | undefined;
  const positions = (): DocumentPositions => {
    if (parsed !== undefined) return parsed;
    const { LineCounter, parseAllDocuments } = yamlLibrary();
    const lines = new LineCounter();
    const doc = parseAllDocuments(text, { lineCounter: lines })[0] as Document;
    parsed = yamlPositions(doc, lines, listOf(value)?.itemsKey);
    return parsed;
  };
  const collector = new ManifestCollector(file);
  collector.document(0, value, {
    objectLine: (item) => positions().objectLine(item),
    fieldLine: (item, segments) => positions().fieldLine(item, segments),
  });
  return { manifests: collector.manifests, errors: collector.errors };
}

function decodeYaml(file: string, text: string): ManifestSet {
  const { LineCounter, parseAllDocuments, isScalar } = yamlLibrary();
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: lines, prettyErrors: true });
  const collector = new ManifestCollector(file);
  collector.errors.push(...yamlSyntaxErrors(file, parsed));
  parsed.forEach((doc, document) => {
    if (doc.errors.length > 0) return;
    const root = doc.contents;
    if (root === null || (isScalar(root) && root.value === null)) return;
    const converted = yamlDocumentValue(file, doc, lines);
    if ('error' in converted) {
      collector.errors.push(converted.error);
      return;
    }
    const { value } = converted;
    collector.document(document, value, yamlPositions(doc, lines, listOf(value)?.itemsKey));
  });
  return { manifests: collector.manifests, errors: collector.errors };
}

/** The first few segments of a (very long) field path, as errors name it. */
function shortPath(segments: readonly PropertyKey[]): string {
  return `${formatFieldPath(segments.slice(0, 6))}${segments.length > 6 ? '...' : ''}`;
}

/** How many alias uses one document may expand; past it the YAML library refuses the document. */
export const MaxYamlAliasCount = 1000;

/**
 * The value of one parsed YAML document, or the error naming the file and the document's line
 * when its aliases expand past MaxYamlAliasCount (a "billion laughs" file): the YAML library
 * throws for that, and a user's file must never end a command with an internal error.
 */
export function yamlDocumentValue(
  file: string,
  doc: Document,
  lines: LineCounter,
): { value: unknown } | { error: ManifestError } {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MaxYamlAliasCount }) as unknown;
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const line = lines.linePos(doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0).line;
    const message = error.message.startsWith('Excessive alias count')
      ? `YAML aliases (*name) expand past ${MaxYamlAliasCount} uses in this document; write the values out instead`
      : `YAML alias error: ${error.message}`;
    return { error: { file, message, line } };
  }
  return { value };
}

/** Positions in a parsed YAML document whose list items (if it is a list) sit under `itemsKey`. */
function yamlPositions(doc: Document, lines: LineCounter, itemsKey: string | undefined): DocumentPositions {
  const root = doc.contents as Node | null;
  const lineAt = (node: Node | null | undefined, fallback: number) =>
    node?.range ? lines.linePos(node.range[0]).line : fallback;
  const docLine = lineAt(root, lines.linePos(doc.range?.[0] ?? 0).line);
  let items: Array<Node | undefined> | undefined;
  const itemNode = (item: number | undefined): Node | null | undefined => {
    if (item === undefined) return root;
    items ??= root === null ? [] : listItemNodes(doc, root, itemsKey);
    return items[item];
  };
  return {
    objectLine: (item) => (item === undefined ? docLine : lineAt(itemNode(item), docLine)),
    fieldLine: (item, segments) => {
      const node = itemNode(item);
      const start = item === undefined ? docLine : lineAt(node, docLine);
      return fieldLine(doc, node, segments, lines, start);
    },
  };
}

/**
 * The syntax errors of a parsed YAML stream (parsed with `prettyErrors`, so errors carry
 * their position), as `YAML syntax error: ...` errors at line and column, the first few only:
 * past those they mostly echo the first.
 */
export function yamlSyntaxErrors(file: string, documents: readonly Document[]): ManifestError[] {
  const all = documents.flatMap((doc) => doc.errors);
  const errors = all
    .slice(0, MaxSyntaxErrors)
    .map((error) => syntaxError(file, error.message, error.linePos?.[0]));
  const more = all.length - MaxSyntaxErrors;
  if (more > 0)
    errors.push({ file, message: `${more} more YAML syntax error${more === 1 ? '' : 's'} not shown` });
  return errors;
}

/** Syntax errors shown per file: past the first few, they mostly echo the first. */
const MaxSyntaxErrors = 5;

/**
 * A decoded object as a Manifest, or the errors saying why it is not one: an object must have
 * a non-empty string `apiVersion` and `kind`. Used for objects from files and for objects a
 * command produces (such as converted ones), which keep the source of the input they came from.
 */
export function manifestOf(
  object: Record<string, unknown>,
  source: ManifestSource,
): { manifest: Manifest } | { errors: ManifestError[] } {
  const name = nameOf(object);
  const kind = typeof object.kind === 'string' && object.kind !== '' ? object.kind : undefined;
  const id = objectId(kind ?? '<no kind>', name, source.ordinal);
  const header = typeHeader(object);
  if (header.length > 0) {
    return {
      errors: header.map((problem) => {
        const line = source.lineOf(problem.segments);
        return {
          file: source.file,
          object: id,
          path: problem.path,
          message: problem.message,
          ...(line === undefined ? {} : { line }),
        };
      }),
    };
  }
  return {
    manifest: {
      apiVersion: object.apiVersion as string,
      kind: kind as string,
      ...(name === undefined ? {} : { name }),
      id,
      object,
      source,
    },
  };
}

interface TypeOf {
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * Recognises documents that hold several objects: an array, `kind: List`, and typed lists
 * (`PodList`, as the API returns them), whose items may omit apiVersion and kind.
 */
function listOf(value: unknown): { items: unknown[]; itemsKey?: string; inherit?: TypeOf } | undefined {
  if (Array.isArray(value)) return { items: value };
  if (!isPlainObject(value) || !Array.isArray(value.items) || typeof value.kind !== 'string')
    return undefined;
  if (value.kind === 'List') return { items: value.items, itemsKey: 'items' };
  const named = isPlainObject(value.metadata) && value.metadata.name !== undefined;
  if (!value.kind.endsWith('List') || named || typeof value.apiVersion !== 'string') return undefined;
  return {
    items: value.items,
    itemsKey: 'items',
    inherit: { apiVersion: value.apiVersion, kind: value.kind.slice(0, -'List'.length) },
  };
}

function listItemNodes(doc: Document, root: Node, itemsKey: string | undefined): Array<Node | undefined> {
  const { isMap, isSeq } = yamlLibrary();
  const seq =
    itemsKey === undefined
      ? root
      : resolve(doc, isMap(root) ? (root.get(itemsKey, true) as Node) : undefined);
  return isSeq(seq) ? seq.items.map((n) => resolve(doc, n as Node)) : [];
}

/** apiVersion and kind are how an object is recognised, so an object without them is an error. */
function typeHeader(
  object: Record<string, unknown>,
): Array<{ path: string; segments: string[]; message: string }> {
  const problems = [];
  for (const key of ['apiVersion', 'kind'] as const) {
    const value = object[key];
    if (typeof value === 'string' && value !== '') continue;
    const message =
      value === undefined || value === '' ? 'is required' : `must be a string, not ${describeValue(value)}`;
    problems.push({ path: key, segments: [key], message });
  }
  return problems;
}

function nameOf(object: Record<string, unknown>): string | undefined {
  const metadata = object.metadata;
  if (!isPlainObject(metadata)) return undefined;
  return typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
}

function fieldLine(
  doc: Document,
  start: Node | null | undefined,
  segments: readonly PropertyKey[],
  lines: LineCounter,
  fallback: number,
): number {
  const { isMap, isScalar, isSeq } = yamlLibrary();
  let line = fallback;
  let node = resolve(doc, start ?? undefined);
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (pair === undefined) break;
      const key = pair.key as Node;
      if (key.range) line = lines.linePos(key.range[0]).line;
      node = resolve(doc, pair.value as Node | null);
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = resolve(doc, node.items[segment] as Node | undefined);
      if (item === undefined) break;
      if (item.range) line = lines.linePos(item.range[0]).line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}

function resolve(doc: Document, node: Node | null | undefined): Node | undefined {
  if (node === null || node === undefined) return undefined;
  if (yamlLibrary().isAlias(node)) return (node.resolve(doc) as Node | undefined) ?? undefined;
  return node;
}

function syntaxError(
  file: string,
  message: string,
  pos: { line: number; col: number } | undefined,
): ManifestError {
  // The yaml package appends the position and a source excerpt; keep the first sentence.
  const text = message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
  return {
    file,
    message: `YAML syntax error: ${text}`,
    ...(pos === undefined ? {} : { line: pos.line, column: pos.col }),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
