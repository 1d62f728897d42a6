import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, parseAllDocuments, stringify } from 'yaml';
import { main } from './main.js';
import { fakeIo, useTempDir } from './testing/fake-io.js';

// Issue 14 item 10, the property: whatever a user's file holds, every command ends with exit
// 0, 1 or 2, a non-zero exit says why on stderr, and nothing ends in `internal error`, a stack
// trace or a hang. The inputs are the shipped examples, mutated: fields deleted, types
// changed, huge numbers, deep nesting, broken YAML, truncation and binary bytes.

const examples = new URL('../../../examples/', import.meta.url);
const tempDir = useTempDir();

/** An example directory the commands read whole, and the command lines that read it. */
interface Corpus {
  readonly dir: string;
  readonly files: readonly string[];
}

const corpora: readonly Corpus[] = [
  'schedule',
  'disrupt',
  'convert',
  'scenarios',
  'workloads',
  'nodepools/aws',
  'nodepools/gcp',
  'nodepools/azure',
].map((dir) => ({
  dir,
  files: readdirSync(new URL(`${dir}/`, examples))
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort(),
}));

/** The command lines each case may run; `IN` is the mutated directory, `FILE` the mutated file. */
const commandLines: readonly (readonly string[])[] = [
  ['validate', '-f', 'IN'],
  ['validate', '-R', '-f', 'IN', '--strict'],
  ['convert', '-f', 'IN'],
  ['schedule', '-f', 'IN', '--catalog', 'kwok'],
  ['schedule', '-f', 'IN', '--catalog', 'aws', '--expand-workloads', '-o', 'json'],
  ['disrupt', '-f', 'IN', '--now', '2024-06-03T14:00:00Z'],
  ['disrupt', '-f', 'IN', '--catalog', 'aws', '-o', 'json'],
  ['simulate', 'FILE'],
  ['validate', '-f', '-'],
  ['crds', '--out', 'FILE'],
];

/** Replacement values of every type, and numbers at the edges. */
const oddValue = fc.constantFrom<unknown>(
  'x',
  '',
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  1e21,
  1e308,
  -1e308,
  Number.POSITIVE_INFINITY,
  Number.NaN,
  true,
  null,
  [],
  {},
  ['a', 1, null],
  { a: { b: 'c' } },
  '9999999999999999999999Gi',
  '-5m',
  '1e400',
);

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'nest'; at: number; depth: number }
  | { kind: 'insert'; offset: number; text: string }
  | { kind: 'truncate'; offset: number }
  | { kind: 'binary'; offset: number; bytes: Uint8Array }
  | { kind: 'random'; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: oddValue }),
  fc.record({
    kind: fc.constant('nest' as const),
    at: fc.nat(),
    depth: fc.integer({ min: 50, max: 30_000 }),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    offset: fc.nat(),
    text: fc.constantFrom(
      ':',
      '\t',
      '{',
      ']',
      '&a ',
      '*a',
      '\n---\n',
      '%YAML 9\n',
      '? ',
      '!!binary ',
      '"',
      "'",
    ),
  }),
  fc.record({ kind: fc.constant('truncate' as const), offset: fc.nat() }),
  fc.record({
    kind: fc.constant('binary' as const),
    offset: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
  }),
  fc.record({
    kind: fc.constant('random' as const),
    text: fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })),
  }),
);

/** Every path to a value in a JS value, parents before children. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
}

/** JSON text of a value `depth` levels deep, written out: JSON.stringify would recurse. */
function nestedJson(depth: number): string {
  return `${'{"a":['.repeat(depth / 2)}"leaf"${']}'.repeat(depth / 2)}`;
}

const NestMark = '\u0000nest\u0000';

/** The file's text with one mutation applied. */
function mutate(text: string, m: Mutation): string {
  switch (m.kind) {
    case 'insert': {
      const at = m.offset % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'truncate':
      return text.slice(0, m.offset % (text.length + 1));
    case 'binary': {
      const at = m.offset % (text.length + 1);
      return text.slice(0, at) + Buffer.from(m.bytes).toString('latin1') + text.slice(at);
    }
    case 'random':
      return m.text;
    default: {
      const values = parseAllDocuments(text).map((d) => d.toJS() as unknown);
      const all = paths(values);
      const path = all[m.at % Math.max(1, all.length)];
      if (path === undefined) return text;
      type Container = Record<string | number, unknown>;
      const parent = path
        .slice(0, -1)
        .reduce<Container>((v, k) => v[k] as Container, values as unknown as Container);
      const key = path.at(-1)!;
      if (m.kind === 'delete') {
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key];
      } else {
        parent[key] = m.kind === 'nest' ? NestMark : structuredClone(m.value);
      }
      // Deep values are written as JSON text, by hand.
      if (m.kind === 'nest') {
        const deep = nestedJson(Math.floor(m.depth / 2) * 2);
        // One JSON array of the documents: JSON input takes the fast JSON.parse path.
        return JSON.stringify(values).replace(JSON.stringify(NestMark), deep);
      }
      return values.map((v) => stringify(v)).join('\n---\n');
    }
  }
}

/** A scenario is cut to 20 simulated minutes, so `simulate` stays quick; other files are left. */
function shortHorizon(text: string): string {
  const docs = parseAllDocuments(text);
  const doc = docs[0];
  if (docs.length !== 1 || doc === undefined || doc.errors.length > 0 || !isMap(doc.contents)) return text;
  if (!doc.has('duration')) return text;
  doc.set('duration', '20m');
  try {
    return doc.toString();
  } catch {
    return text;
  }
}

/** Ends with a failure, naming the command line, when a run outlives `ms`. */
async function withTimeout<T>(run: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung for ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const PerRunMs = 20_000;

describe('fuzz: mutated examples never crash a command', () => {
  it('exits 0, 1 or 2, explains a failure on stderr, never an internal error or a hang', async () => {
    let cases = 0;
    let runs = 0;
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: corpora.length - 1 }).chain((c) =>
          fc.record({
            corpus: fc.constant(corpora[c]!),
            file: fc.constantFrom(...corpora[c]!.files),
            mutation,
          }),
        ),
        async ({ corpus, file, mutation: m }) => {
          const dir = join(tempDir(), `case-${cases++}`);
          const input = join(dir, 'in');
          await mkdir(input, { recursive: true });
          await cp(new URL(`${corpus.dir}/`, examples), input, { recursive: true });
          const original = readFileSync(new URL(`${corpus.dir}/${file}`, examples), 'utf8');
          const text = shortHorizon(mutate(original, m));
          await writeFile(join(input, file), text);
          for (const command of commandLines) {
            const argv = command.map((a) => (a === 'IN' ? 'in' : a === 'FILE' ? `in/${file}` : a));
            const io = fakeIo(dir, text);
            const what = `${argv.join(' ')} (${corpus.dir}/${file}, ${m.kind})`;
            const code = await withTimeout(main(argv, io), PerRunMs, what);
            runs += 1;
            codes.set(code, (codes.get(code) ?? 0) + 1);
            const err = io.err();
            expect(err, what).not.toMatch(/internal error|\n\s+at \S+ \(|RangeError|TypeError/);
            expect([0, 1, 2], `${what}: exit ${code}`).toContain(code);
            if (code !== 0) expect(err.trim(), `${what}: exit ${code} without a message`).not.toBe('');
          }
        },
      ),
      { numRuns: 50, seed: 14_10, endOnFailure: true },
    );
    // The property is only as good as its inputs: most must be refused, some accepted.
    expect(codes.get(1) ?? 0).toBeGreaterThan(runs / 4);
    expect(codes.get(0) ?? 0).toBeGreaterThan(0);
    console.log(
      `fuzz: ${cases} mutated inputs, ${runs} command runs, exit codes ${JSON.stringify(Object.fromEntries(codes))}`,
    );
  }, 120_000);
});
