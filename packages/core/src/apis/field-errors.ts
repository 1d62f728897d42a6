import { z } from 'zod';
import { closestName } from './suggest/closest.js';
import { knownFieldsAt } from './suggest/schema-keys.js';

type Issue = z.core.$ZodIssue;
type Primitive = string | number | bigint | boolean | symbol | null | undefined;

/** One schema problem, located by its Kubernetes field path and described in plain words. */
export interface FieldError {
  /** Kubernetes field path, e.g. `spec.template.spec.requirements[1].values`; `''` for the object itself. */
  readonly path: string;
  /**
   * Where in the input the problem sits, as path segments. Equal to the segments of `path`,
   * except for an unknown field, where it points at the offending key itself so a caller can
   * cite that key's line.
   */
  readonly segments: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Renders path segments the way Kubernetes prints field paths: `.name` for identifier-like
 * keys, `[3]` for list indices and `["karpenter.sh/nodepool"]` for any other key (label and
 * annotation keys), so the path stays unambiguous.
 */
export function formatFieldPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'symbol') out += `[${segment.toString()}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Reads a field path back into segments: the inverse of formatFieldPath, also accepting
 * Kubernetes' unquoted `[key]` form. Parsing stops at the first malformed part, so the
 * result is the longest well-formed prefix.
 */
export function parseFieldPath(path: string): PropertyKey[] {
  const segments: PropertyKey[] = [];
  const part = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\[([^\]]*)\]/y;
  while (part.lastIndex < path.length) {
    const match = part.exec(path);
    if (match === null) break;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(JSON.parse(match[3]) as string);
    else segments.push(match[4] ?? '');
  }
  return segments;
}

/**
 * One error line in the CLI contract's format: `file: Kind/name: field.path: message`. An empty
 * path (a problem with the object as a whole) leaves that part out. A known line is appended
 * as ` (line N)` so the contract's `file: Kind/name: ` prefix stays intact.
 */
export function formatObjectError(
  file: string,
  objectId: string,
  path: string,
  message: string,
  line?: number,
): string {
  const where = path === '' ? '' : `${path}: `;
  const at = line === undefined ? '' : ` (line ${line})`;
  return `${file}: ${objectId}: ${where}${message}${at}`;
}

/**
 * Turns zod issues into field errors with human messages. Messages a schema author wrote
 * (refinements, custom `error`s) are kept; zod's generic defaults are replaced by phrases
 * such as "is required", "must be a string" or "must be one of A, B". A union that failed is
 * reported through its most specific alternative, so the user sees the fields that are
 * actually wrong rather than every alternative's complaint. Unknown keys give one error per
 * key at the enclosing object's path. Order follows the issues; exact duplicates are dropped.
 */
export function fieldErrors(issues: readonly Issue[], options: FieldErrorOptions = {}): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  const context: DescribeContext = { schema: options.schema };
  for (const item of issues.flatMap((issue) => describe(issue, [], context))) {
    const fieldError: FieldError = { path: item.path, segments: item.segments, message: item.message };
    const key = `${fieldError.path}\u0000${fieldError.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fieldError);
  }
  return out;
}

export interface FieldErrorOptions {
  /**
   * The schema the issues came from. With it, an unknown field names the known field it most
   * likely misspells: `unknown field "consolidationPolcy" (did you mean "consolidationPolicy"?)`.
   */
  readonly schema?: z.ZodType;
}

interface DescribeContext {
  readonly schema: z.ZodType | undefined;
}

/** A field error plus what union resolution needs to know about where it came from. */
interface Described {
  readonly path: string;
  readonly segments: readonly PropertyKey[];
  readonly message: string;
  /** Set when the value was of the wrong type (or the wrong literal) rather than wrong inside. */
  readonly mismatch?: { readonly expected: readonly string[]; readonly values: readonly Primitive[] };
  readonly required?: boolean;
  readonly received?: string;
}

function at(segments: readonly PropertyKey[], message: string, extra: Partial<Described> = {}): Described {
  return { path: formatFieldPath(segments), segments, message, ...extra };
}

function describe(issue: Issue, prefix: readonly PropertyKey[], context: DescribeContext): Described[] {
  const segments = [...prefix, ...issue.path];
  const custom = !isZodDefaultMessage(issue);
  switch (issue.code) {
    case 'invalid_union':
      return describeUnion(issue, segments, context);
    case 'invalid_key':
      return issue.issues
        .flatMap((inner) => describe(inner, segments, context))
        .map((d) => prefixed(d, 'key'));
    case 'invalid_element':
      return issue.issues
        .flatMap((inner) => describe(inner, segments, context))
        .map((d) => prefixed(d, 'element'));
    case 'unrecognized_keys':
      if (custom) return [at(segments, issue.message)];
      return issue.keys.map((key) => ({
        ...at(segments, `unknown field ${JSON.stringify(key)}${didYouMean(context, segments, key)}`),
        segments: [...segments, key],
      }));
    case 'invalid_type': {
      const received = receivedType(issue);
      if (custom) return [at(segments, issue.message)];
      if (received === 'undefined' && issue.expected !== 'undefined' && issue.expected !== 'never') {
        return [at(segments, 'is required', { required: true, mismatch: { expected: [], values: [] } })];
      }
      const expected = typePhrase(issue.expected);
      if (expected === undefined) return [at(segments, 'is not allowed')];
      return [
        at(segments, withReceived(`must be ${expected}`, received, issue.expected), {
          mismatch: { expected: [expected], values: [] },
          ...(received === undefined ? {} : { received }),
        }),
      ];
    }
    case 'invalid_value':
      return [
        at(segments, custom ? issue.message : mustBeOneOf(issue.values), {
          mismatch: { expected: [], values: issue.values },
        }),
      ];
    default:
      return [at(segments, custom ? issue.message : defaultPhrase(issue))];
  }
}

function prefixed(d: Described, what: string): Described {
  const message = /^(must|is) /.test(d.message) ? `${what} ${d.message}` : `invalid ${what}: ${d.message}`;
  return { path: d.path, segments: d.segments, message };
}

function didYouMean(context: DescribeContext, segments: readonly PropertyKey[], key: string): string {
  if (context.schema === undefined) return '';
  const known = closestName(key, knownFieldsAt(context.schema, segments));
  return known === undefined ? '' : ` (did you mean ${JSON.stringify(known)}?)`;
}

function describeUnion(
  issue: Extract<Issue, { code: 'invalid_union' }>,
  segments: PropertyKey[],
  context: DescribeContext,
): Described[] {
  if (issue.errors.length === 0) {
    if ('options' in issue && issue.options && issue.options.length > 0) {
      return [
        at(segments, mustBeOneOf(issue.options), { mismatch: { expected: [], values: issue.options } }),
      ];
    }
    if (issue.inclusive === false) return [at(segments, 'matches more than one of the allowed forms')];
    return [at(segments, isZodDefaultMessage(issue) ? 'is invalid' : issue.message)];
  }
  const branches = issue.errors.map((branch) =>
    branch.flatMap((inner) => describe(inner, segments, context)),
  );
  const depth = segments.length;
  const applicable = branches.filter(
    (branch) => !branch.every((d) => d.segments.length === depth && d.mismatch !== undefined),
  );
  if (applicable.length === 0) return [combineAlternatives(branches.flat(), segments)];
  let best = applicable[0]!;
  for (const branch of applicable.slice(1)) {
    if (compareSpecificity(branch, best) < 0) best = branch;
  }
  return best;
}

/**
 * Orders union branches, most specific first: a branch whose errors reach deeper into the
 * value matched more of it; then fewer errors; then fewer missing fields (a missing field
 * hints the user meant another alternative).
 */
function compareSpecificity(a: readonly Described[], b: readonly Described[]): number {
  const deepest = (branch: readonly Described[]) => Math.max(...branch.map((d) => d.segments.length));
  const missing = (branch: readonly Described[]) => branch.filter((d) => d.required).length;
  return deepest(b) - deepest(a) || a.length - b.length || missing(a) - missing(b);
}

/** Every alternative rejected the value's type: say which types or values would do. */
function combineAlternatives(items: readonly Described[], segments: PropertyKey[]): Described {
  if (items.some((d) => d.required)) return at(segments, 'is required', { required: true });
  const expected = [...new Set(items.flatMap((d) => d.mismatch?.expected ?? []))];
  const values = [...new Set(items.flatMap((d) => d.mismatch?.values ?? []))];
  const phrases = [...expected];
  if (values.length === 1) phrases.push(display(values[0]));
  else if (values.length > 1) phrases.push(`one of ${values.map(display).join(', ')}`);
  const received = items.find((d) => d.received !== undefined)?.received;
  const alternatives =
    phrases.length <= 1 ? (phrases[0] ?? 'valid') : `${phrases.slice(0, -1).join(', ')} or ${phrases.at(-1)}`;
  return at(segments, withReceived(`must be ${alternatives}`, received, undefined), {
    mismatch: { expected, values },
    ...(received === undefined ? {} : { received }),
  });
}

function mustBeOneOf(values: readonly Primitive[]): string {
  if (values.length === 1) return `must be ${display(values[0])}`;
  return `must be one of ${values.map(display).join(', ')}`;
}

function display(value: Primitive): string {
  if (typeof value === 'symbol') return value.toString();
  if (value === '') return '""';
  return String(value);
}

const TypePhrases: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'a boolean (true or false)',
  null: 'null',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  date: 'a date',
  file: 'a file',
  nan: 'NaN',
  symbol: 'a symbol',
  function: 'a function',
};

const ReceivedPhrases: Readonly<Record<string, string>> = {
  ...TypePhrases,
  boolean: 'a boolean',
  nan: 'NaN',
};

/** The phrase for an expected type; undefined where zod expects nothing to be there at all. */
function typePhrase(expected: string): string | undefined {
  if (expected === 'undefined' || expected === 'never' || expected === 'void') return undefined;
  return TypePhrases[expected] ?? `of type ${expected}`;
}

function withReceived(message: string, received: string | undefined, expected: string | undefined): string {
  if (received === undefined) return message;
  // "must be an integer, not a number" says nothing new: the value was a fraction.
  if (expected === 'int' && received === 'number') return message;
  const phrase = ReceivedPhrases[received] ?? received;
  return `${message}, not ${phrase}`;
}

/** What zod found instead: from the issue's input when reported, else from zod's own message. */
function receivedType(issue: Extract<Issue, { code: 'invalid_type' }>): string | undefined {
  if ('input' in issue) return z.core.util.parsedType(issue.input);
  return DefaultInvalidType.exec(issue.message)?.[2];
}

const DefaultInvalidType = /^Invalid input: expected (\S+), received (\S+)$/;

const FormatPhrases: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  guid: 'a GUID',
  datetime: 'an RFC 3339 date-time (e.g. 2024-01-02T15:04:05Z)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM:SS)',
  duration: 'an ISO 8601 duration',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 CIDR range',
  cidrv6: 'an IPv6 CIDR range',
  base64: 'base64-encoded',
  base64url: 'base64url-encoded',
  json_string: 'a JSON string',
};

const SizeUnits: Readonly<Record<string, [singular: string, plural: string]>> = {
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['entry', 'entries'],
  string: ['character', 'characters'],
  file: ['byte', 'bytes'],
};

function defaultPhrase(issue: Issue): string {
  switch (issue.code) {
    case 'too_big':
    case 'too_small':
      return sizePhrase(issue);
    case 'invalid_format': {
      const format = issue as z.core.$ZodStringFormatIssues;
      switch (format.format) {
        case 'regex':
          return `must match ${format.pattern}`;
        case 'starts_with':
          return `must start with ${JSON.stringify(format.prefix)}`;
        case 'ends_with':
          return `must end with ${JSON.stringify(format.suffix)}`;
        case 'includes':
          return `must contain ${JSON.stringify(format.includes)}`;
        default:
          return `must be ${FormatPhrases[format.format] ?? `a valid ${format.format}`}`;
      }
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return 'is invalid';
  }
}

function sizePhrase(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const big = issue.code === 'too_big';
  const limit = big ? issue.maximum : issue.minimum;
  const units = SizeUnits[issue.origin];
  if (units !== undefined) {
    const count = (n: number | bigint) => `${n} ${n === 1 || n === 1n ? units[0] : units[1]}`;
    const verb = issue.origin === 'string' ? 'be' : 'have';
    if (issue.exact) return `must ${verb} exactly ${count(limit)}${issue.origin === 'string' ? ' long' : ''}`;
    // Bounds on sizes are whole numbers, so an exclusive bound is the inclusive one off by one.
    const bound = issue.inclusive === false ? (big ? Number(limit) - 1 : Number(limit) + 1) : limit;
    if (!big && Number(bound) === 1) return 'must not be empty';
    const qualifier = big ? 'at most' : 'at least';
    if (issue.origin === 'string') return `must be ${qualifier} ${count(bound)} long`;
    return `must have ${qualifier} ${count(bound)}`;
  }
  const shown = issue.origin === 'date' ? new Date(Number(limit)).toISOString() : String(limit);
  if (issue.exact) return `must be exactly ${shown}`;
  if (big) return issue.inclusive === false ? `must be less than ${shown}` : `must be at most ${shown}`;
  return issue.inclusive === false ? `must be greater than ${shown}` : `must be at least ${shown}`;
}

/**
 * True when the issue's message is the one zod's configured locale generates, i.e. the schema
 * author did not write their own. `custom` issues always carry the author's words.
 */
function isZodDefaultMessage(issue: Issue): boolean {
  if (issue.code === 'custom') return issue.message === 'Invalid input';
  if (issue.code === 'invalid_type' && DefaultInvalidType.test(issue.message)) return true;
  const localeError = z.config().localeError ?? z.locales.en().localeError;
  const generated = localeError(issue as unknown as z.core.$ZodRawIssue);
  const text = typeof generated === 'string' ? generated : generated?.message;
  return text === issue.message;
}
