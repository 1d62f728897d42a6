import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { main } from './main.js';
import { fakeIo, tempDir } from './testing/fake-io.js';
import { fixtureServices } from './testing/fixture-services.js';

// These tests drive main() with stand-in kinds (testing/fixture-services.ts), so they pin the
// commands' behaviour independently of the real schemas; compose.test.ts covers the wiring.

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

async function run(argv: string[], stdin = '') {
  const io = fakeIo(dir, stdin);
  const code = await main(argv, io, fixtureServices);
  return { code, out: io.out(), err: io.err() };
}

async function file(name: string, text: string): Promise<string> {
  await mkdir(join(dir, name, '..'), { recursive: true });
  await writeFile(join(dir, name), text);
  return name;
}

const widget = (name: string, spec = 'replicas: 1') =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  ${spec}\n`;

/** The contract's error shape: `file: Kind/name: field.path: message`. */
const contractError = /^[^:\s]+: [A-Za-z]+\/[^:\s]+: [\w.[\]"/-]+: .+$/;

describe('command line', () => {
  it('prints the usage on stderr and exits 2 without a command', async () => {
    const { code, out, err } = await run([]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^usage: nodewright <command>/);
    expect(err).toContain('validate');
  });

  it('exits 2 for an unknown command, naming it', async () => {
    const { code, err } = await run(['frobnicate', '-f', 'x.yaml']);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe("nodewright: unknown command 'frobnicate'");
    expect(err).toContain('usage: nodewright <command>');
  });

  it('exits 2 for an option before the command', async () => {
    const { code, err } = await run(['-f', 'x.yaml']);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe("nodewright: unknown option '-f'");
  });

  it('prints the command list on stdout for --help and help, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const { code, out, err } = await run(argv);
      expect(code).toBe(0);
      expect(err).toBe('');
      for (const name of ['validate', 'convert', 'crds'])
        expect(out).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
  });

  it('prints its version for --version, exit 0', async () => {
    const { code, out, err } = await run(['--version']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^nodewright \d+\.\d+\.\d+ \(node v\d+\.\d+\.\d+\)\n$/);
  });

  it('prints a command help for `help NAME` and `NAME --help`, exit 0', async () => {
    for (const argv of [
      ['help', 'validate'],
      ['validate', '--help'],
      ['validate', '-h'],
      ['validate', '-f', '--help'],
    ]) {
      const { code, out } = await run(argv);
      expect(code).toBe(0);
      expect(out).toMatch(/^usage: nodewright validate -f FILE/);
      expect(out).toContain('-R, --recursive');
    }
    expect((await run(['help', 'nope'])).code).toBe(2);
  });

  it('has help for every command that names its exit codes', async () => {
    for (const name of ['validate', 'convert', 'crds']) {
      const { out } = await run([name, '--help']);
      expect(out).toContain('Exit status:');
    }
  });
});

describe('usage errors (exit 2)', () => {
  const usageError = async (argv: string[], problem: string, command = 'validate') => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    const lines = err.split('\n');
    expect(lines[0]).toBe(`nodewright ${command}: ${problem}`);
    expect(lines[1]).toMatch(new RegExp(`^usage: nodewright ${command}`));
  };

  it('requires -f', () => usageError(['validate'], '-f FILE is required'));
  it('requires -f for convert too', () => usageError(['convert'], '-f FILE is required', 'convert'));
  it('rejects an unknown option', () =>
    usageError(['validate', '-f', 'a.yaml', '--frob'], "unknown option '--frob'"));
  it('rejects -f without a value', () => usageError(['validate', '-f'], 'option -f needs a value'));
  it('rejects a stray argument', () =>
    usageError(['validate', '-f', 'a.yaml', 'b.yaml'], "unexpected argument 'b.yaml'"));
  it('rejects a value for a flag', () =>
    usageError(['validate', '-f', 'a.yaml', '--recursive=yes'], 'option -R does not take a value'));
  it('rejects crds positionals', () => usageError(['crds', 'out'], "unexpected argument 'out'", 'crds'));
  it('rejects --out without a directory', () =>
    usageError(['crds', '--out'], 'option --out needs a value', 'crds'));
});

describe('validate', () => {
  it('prints OK Kind/name per valid object and exits 0', async () => {
    await file('w.yaml', `${widget('a')}---\n${widget('b')}`);
    const { code, out, err } = await run(['validate', '-f', 'w.yaml']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('OK Widget/a\nOK Widget/b\n');
  });

  it('accepts -f=FILE and --filename FILE, in the order given', async () => {
    await file('a.yaml', widget('a'));
    await file('b.yaml', widget('b'));
    const { code, out } = await run(['validate', '-f=b.yaml', '--filename', 'a.yaml']);
    expect(code).toBe(0);
    expect(out).toBe('OK Widget/b\nOK Widget/a\n');
  });

  it('reports a schema error with the field path and line, in the contract format', async () => {
    await file('pools.yaml', `${widget('ok')}---\n${widget('bad', 'replicas: 1\n  zones: [a, b, c]')}`);
    const { code, out, err } = await run(['validate', '-f', 'pools.yaml']);
    expect(code).toBe(1);
    expect(out).toBe('OK Widget/ok\n');
    expect(err).toBe('pools.yaml: Widget/bad: spec.zones: must have at most 2 items (line 14)\n');
    expect(err.trimEnd().replace(/ \(line \d+\)$/, '')).toMatch(contractError);
  });

  it('reports every field error, with human messages', async () => {
    await file('w.yaml', widget('w', 'replicas: -1\n  mode: Medium\n  colour: red'));
    const { code, err } = await run(['validate', '-f', 'w.yaml']);
    expect(code).toBe(1);
    expect(err.split('\n').filter(Boolean)).toEqual([
      'w.yaml: Widget/w: spec.replicas: must be at least 0 (line 6)',
      'w.yaml: Widget/w: spec.mode: must be one of Fast, Slow (line 7)',
      'w.yaml: Widget/w: spec: unknown field "colour" (line 8)',
    ]);
  });

  it('cites the enclosing line for a missing field', async () => {
    await file(
      'w.yaml',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  zones: []\n',
    );
    const { err } = await run(['validate', '-f', 'w.yaml']);
    expect(err).toBe('w.yaml: Widget/w: spec.replicas: is required (line 4)\n');
  });

  it('names an object without a name Kind/<unnamed #N>', async () => {
    await file(
      'w.yaml',
      `${widget('a')}---\napiVersion: example.com/v1\nkind: Widget\nspec: {replicas: 1}\n`,
    );
    const { code, err } = await run(['validate', '-f', 'w.yaml']);
    expect(code).toBe(1);
    expect(err).toBe('w.yaml: Widget/<unnamed #2>: metadata: is required (line 8)\n');
  });

  it('reports a YAML syntax error with its line and column, and still checks the other files', async () => {
    await file('bad.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "web\n');
    await file('good.yaml', widget('g'));
    const { code, out, err } = await run(['validate', '-f', 'bad.yaml', '-f', 'good.yaml']);
    expect(code).toBe(1);
    expect(out).toBe('OK Widget/g\n');
    expect(err).toBe('bad.yaml: YAML syntax error: Missing closing "quote (line 5, column 1)\n');
  });

  it('reports a document that is not an object', async () => {
    await file('w.yaml', `${widget('a')}---\n- just\n- a list of strings\n`);
    const { code, err } = await run(['validate', '-f', 'w.yaml']);
    expect(code).toBe(1);
    expect(err).toBe(
      'w.yaml: item 1 of document 2 is a string, expected an object (line 8)\n' +
        'w.yaml: item 2 of document 2 is a string, expected an object (line 9)\n',
    );
  });

  it('reports an object without apiVersion or kind instead of skipping it', async () => {
    await file('w.yaml', 'metadata: {name: x}\nspec: {}\n');
    const { code, err } = await run(['validate', '-f', 'w.yaml']);
    expect(code).toBe(1);
    expect(err).toBe(
      'w.yaml: <no kind>/x: apiVersion: is required (line 1)\nw.yaml: <no kind>/x: kind: is required (line 1)\n',
    );
  });

  it('skips a kind nodewright does not read with one line, and --strict makes it an error', async () => {
    await file('d.yaml', `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\n${widget('a')}`);
    const skipped = await run(['validate', '-f', 'd.yaml']);
    expect(skipped.code).toBe(0);
    expect(skipped.out).toBe('OK Widget/a\n');
    expect(skipped.err).toBe(
      'd.yaml: Deployment/web: skipped: Deployment (apps/v1) is not a kind nodewright reads (--strict makes this an error) (line 1)\n',
    );
    const strict = await run(['validate', '--strict', '-f', 'd.yaml']);
    expect(strict.code).toBe(1);
    expect(strict.err).toBe(
      'd.yaml: Deployment/web: kind: Deployment (apps/v1) is not a kind nodewright knows (known: Gadget, Pod, Widget) (line 2)\n',
    );
  });

  it('reports an unknown kind in an API group of its own kinds, with the kind meant', async () => {
    await file('g.yaml', 'apiVersion: example.com/v1\nkind: Widgit\nmetadata: {name: w}\n');
    const { code, err } = await run(['validate', '-f', 'g.yaml']);
    expect(code).toBe(1);
    expect(err).toBe(
      'g.yaml: Widgit/w: kind: Widgit (example.com/v1) is not a kind nodewright knows (did you mean Widget? known: Gadget, Pod, Widget) (line 2)\n',
    );
  });

  it('names the field a misspelt one means, and appends a migration hint', async () => {
    await file(
      'm.yaml',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: m}\nspec:\n  replicas: 1\n  zoens: [a]\n  size: 2\n',
    );
    const { code, err } = await run(['validate', '-f', 'm.yaml']);
    expect(code).toBe(1);
    expect(err).toBe(
      [
        'm.yaml: Widget/m: spec: unknown field "zoens" (did you mean "zones"?) (line 6)',
        'm.yaml: Widget/m: spec: unknown field "size"; v1 calls it spec.replicas (line 7)',
        '',
      ].join('\n'),
    );
  });

  it('refuses binary input in one line', async () => {
    await writeFile(
      join(dir, 'bin.yaml'),
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, ...Array(5000).fill(0x41)]),
    );
    const { code, err } = await run(['validate', '-f', 'bin.yaml']);
    expect(code).toBe(1);
    expect(err).toBe('bin.yaml: binary data, not YAML or JSON text (control character 0x7f) (line 1)\n');
  });

  it('shows at most five YAML syntax errors of a file, and caps a long message', async () => {
    await file('bad.yaml', `${'{a: [\n'.repeat(2)}${'x: : :\n'.repeat(20)}`);
    const { code, err } = await run(['validate', '-f', 'bad.yaml']);
    expect(code).toBe(1);
    const lines = err.split('\n').filter(Boolean);
    expect(lines.length).toBe(6);
    expect(lines.at(-1)).toMatch(/^bad\.yaml: \d+ more YAML syntax errors not shown$/);
    await file(
      'long.yaml',
      `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: l}\nspec: {replicas: 1, ${'q'.repeat(2000)}: 1}\n`,
    );
    const long = await run(['validate', '-f', 'long.yaml']);
    expect(long.code).toBe(1);
    expect(long.err).toMatch(
      /^long\.yaml: Widget\/l: spec: unknown field "q+\.\.\. \(\d+ more characters\)\n$/,
    );
    expect(long.err.length).toBeLessThan(450);
  });

  it('reports an unknown apiVersion of a known kind, pointing at convert where it applies', async () => {
    await file('old.yaml', widget('a').replace('example.com/v1', 'example.com/v1alpha1'));
    await file('new.yaml', widget('b').replace('example.com/v1', 'example.com/v2'));
    const { code, err } = await run(['validate', '-f', 'old.yaml', '-f', 'new.yaml']);
    expect(code).toBe(1);
    expect(err.split('\n').filter(Boolean)).toEqual([
      'old.yaml: Widget/a: apiVersion: Widget apiVersion example.com/v1alpha1 is not supported (known: example.com/v1); run nodewright convert to upgrade it (line 1)',
      'new.yaml: Widget/b: apiVersion: Widget apiVersion example.com/v2 is not supported (known: example.com/v1) (line 1)',
    ]);
  });

  it('reads a JSON array', async () => {
    const objects = [
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'j1' }, spec: { replicas: 1 } },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'j2' }, spec: { replicas: 'x' } },
    ];
    await file('w.json', JSON.stringify(objects, null, 2));
    const { code, out, err } = await run(['validate', '-f', 'w.json']);
    expect(code).toBe(1);
    expect(out).toBe('OK Widget/j1\n');
    expect(err).toBe('w.json: Widget/j2: spec.replicas: must be a number, not a string (line 19)\n');
  });

  it('reads a kind: List', async () => {
    await file(
      'list.yaml',
      `apiVersion: v1\nkind: List\nitems:\n- ${widget('l1').trimEnd().replaceAll('\n', '\n  ')}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n`,
    );
    const { code, out, err } = await run(['validate', '-f', 'list.yaml']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('OK Widget/l1\nOK Pod/p\n');
  });

  it('reads a directory: its manifest files in name order, not subdirectories unless -R', async () => {
    await file('m/b.yaml', widget('b'));
    await file('m/a.yml', widget('a'));
    await file('m/c.json', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c' } }));
    await file('m/README.md', '# not a manifest');
    await file('m/sub/d.yaml', widget('d'));
    expect((await run(['validate', '-f', 'm'])).out).toBe('OK Widget/a\nOK Widget/b\nOK Pod/c\n');
    expect((await run(['validate', '-R', '-f', 'm'])).out).toBe(
      'OK Widget/a\nOK Widget/b\nOK Pod/c\nOK Widget/d\n',
    );
  });

  it('names files inside a directory by their path', async () => {
    await file('m/bad.yaml', widget('x', 'replicas: many'));
    const { err } = await run(['validate', '-f', 'm']);
    expect(err).toBe(
      `${join('m', 'bad.yaml')}: Widget/x: spec.replicas: must be a number, not a string (line 6)\n`,
    );
  });

  it('reads standard input for -', async () => {
    const { code, out } = await run(['validate', '-f', '-'], widget('s'));
    expect(code).toBe(0);
    expect(out).toBe('OK Widget/s\n');
    const bad = await run(['validate', '-f', '-'], widget('s', 'replicas: x'));
    expect(bad.err).toBe('<stdin>: Widget/s: spec.replicas: must be a number, not a string (line 6)\n');
  });

  it('reports an unreadable file with exit 1', async () => {
    const { code, err } = await run(['validate', '-f', 'missing.yaml']);
    expect(code).toBe(1);
    expect(err).toBe('missing.yaml: cannot read: no such file or directory\n');
  });

  it('treats inputs without any object as an error', async () => {
    await file('empty.yaml', '# nothing here\n---\n');
    const { code, err } = await run(['validate', '-f', 'empty.yaml']);
    expect(code).toBe(1);
    expect(err).toBe('empty.yaml: no objects found\n');
  });
});

describe('crds', () => {
  it('prints every CRD as one multi-document YAML stream', async () => {
    const { code, out, err } = await run(['crds']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const docs = parseAllDocuments(out);
    expect(docs.map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name)).toEqual([
      'widgets.example.com',
      'gadgets.example.com',
    ]);
  });

  it('writes one file per CRD into --out, creating it, and lists the paths', async () => {
    const { code, out } = await run(['crds', '--out', 'deploy/crds']);
    expect(code).toBe(0);
    const paths = [
      join('deploy/crds', 'example.com_widgets.yaml'),
      join('deploy/crds', 'example.com_gadgets.yaml'),
    ];
    expect(out).toBe(`${paths.join('\n')}\n`);
    expect((await readdir(join(dir, 'deploy/crds'))).sort()).toEqual([
      'example.com_gadgets.yaml',
      'example.com_widgets.yaml',
    ]);
    expect(await readFile(join(dir, paths[0]!), 'utf8')).toContain('name: widgets.example.com');
  });

  it('fails with exit 1 when the directory cannot be created', async () => {
    await file('taken', 'a file, not a directory');
    const { code, out, err } = await run(['crds', '--out', 'taken']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^taken: cannot create directory: /);
  });
});

describe('convert', () => {
  const old = (name: string, spec: string) =>
    widget(name, spec).replace('example.com/v1', 'example.com/v1alpha1');

  it('prints the converted objects as YAML and warnings in the error format on stderr', async () => {
    await file('old.yaml', `${old('a', 'size: 3\n  color: blue')}---\n${widget('b')}`);
    const { code, out, err } = await run(['convert', '-f', 'old.yaml']);
    expect(code).toBe(0);
    expect(err).toBe('old.yaml: Widget/a: spec.color: dropped: v1 has no colors (line 7)\n');
    const docs = parseAllDocuments(out).map((d) => d.toJS());
    expect(docs).toEqual([
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { replicas: 3 } },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'b' }, spec: { replicas: 1 } },
    ]);
  });

  it('produces output that validate accepts', async () => {
    await file('old.yaml', old('a', 'size: 2'));
    const converted = await run(['convert', '-f', 'old.yaml']);
    const validated = await run(['validate', '-f', '-'], converted.out);
    expect(validated.err).toBe('');
    expect(validated.code).toBe(0);
    expect(validated.out).toBe('OK Widget/a\n');
  });

  it('passes current objects through unchanged', async () => {
    await file(
      'new.yaml',
      `${widget('b', 'replicas: 2\n  zones: [z1]')}---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n`,
    );
    const { code, out } = await run(['convert', '-f', 'new.yaml']);
    expect(code).toBe(0);
    expect(parseAllDocuments(out).map((d) => d.toJS())).toEqual([
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'b' },
        spec: { replicas: 2, zones: ['z1'] },
      },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
    ]);
  });

  it('prints nothing and exits 1 when the result does not validate', async () => {
    await file('old.yaml', `${old('a', 'color: red')}---\n${widget('b', 'replicas: x')}`);
    const { code, out, err } = await run(['convert', '-f', 'old.yaml']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.split('\n').filter(Boolean)).toEqual([
      'old.yaml: Widget/a: spec.color: dropped: v1 has no colors (line 6)',
      // A field of a rewritten object that the file lacks names its nearest ancestor's line.
      'old.yaml: Widget/a: spec.replicas: is required (line 5)',
      'old.yaml: Widget/b: spec.replicas: must be a number, not a string (line 13)',
    ]);
  });

  it('prints nothing and exits 1 for unreadable or malformed input', async () => {
    await file('bad.yaml', 'a: [1\n');
    const { code, out, err } = await run(['convert', '-f', 'bad.yaml', '-f', 'missing.yaml']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(
      /^bad\.yaml: YAML syntax error: .* \(line \d+, column \d+\)\nmissing\.yaml: cannot read: no such file or directory\n$/,
    );
  });
});
