import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatManifestError } from './format.js';
import { nodeManifestFs } from './node-fs.js';
import { type ManifestFs, MaxDirectoryDepth, readManifests } from './read.js';

const node = (name: string) => `apiVersion: v1\nkind: Node\nmetadata: {name: ${name}}\n`;

describe('readManifests', () => {
  let dir: string;
  let stdinReads: number;
  const options = (stdin = '', recursive = false) => ({
    cwd: dir,
    fs: nodeManifestFs,
    recursive,
    readStdin: async () => {
      stdinReads += 1;
      return stdin;
    },
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodewright-manifests-'));
    stdinReads = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads files in the order given, naming them as given', async () => {
    await writeFile(join(dir, 'b.yaml'), node('b'));
    await writeFile(join(dir, 'a.yaml'), node('a'));
    const set = await readManifests(['b.yaml', 'a.yaml'], options());
    expect(set.errors).toEqual([]);
    expect(set.manifests.map((m) => [m.source.file, m.id])).toEqual([
      ['b.yaml', 'Node/b'],
      ['a.yaml', 'Node/a'],
    ]);
  });

  it('reads a directory: its yaml, yml and json files in name order, not subdirectories', async () => {
    await mkdir(join(dir, 'm', 'sub'), { recursive: true });
    await writeFile(
      join(dir, 'm', 'c.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'c' } }),
    );
    await writeFile(join(dir, 'm', 'a.yml'), node('a'));
    await writeFile(join(dir, 'm', 'B.YAML'), node('upper'));
    await writeFile(join(dir, 'm', 'b.yaml'), node('b'));
    await writeFile(join(dir, 'm', 'notes.txt'), 'not a manifest');
    await writeFile(join(dir, 'm', 'sub', 'd.yaml'), node('d'));
    const set = await readManifests(['m'], options());
    expect(set.errors).toEqual([]);
    expect(set.manifests.map((m) => [m.source.file, m.id])).toEqual([
      [join('m', 'B.YAML'), 'Node/upper'],
      [join('m', 'a.yml'), 'Node/a'],
      [join('m', 'b.yaml'), 'Node/b'],
      [join('m', 'c.json'), 'Node/c'],
    ]);
  });

  it('descends into subdirectories when recursive', async () => {
    await mkdir(join(dir, 'm', 'sub'), { recursive: true });
    await writeFile(join(dir, 'm', 'a.yaml'), node('a'));
    await writeFile(join(dir, 'm', 'sub', 'd.yaml'), node('d'));
    const set = await readManifests(['m'], options('', true));
    expect(set.manifests.map((m) => m.source.file)).toEqual([
      join('m', 'a.yaml'),
      join('m', 'sub', 'd.yaml'),
    ]);
  });

  it('follows a symbolic link to a directory only when recursive', async () => {
    await mkdir(join(dir, 'real'));
    await mkdir(join(dir, 'm'));
    await writeFile(join(dir, 'real', 'r.yaml'), node('r'));
    await writeFile(join(dir, 'm', 'a.yaml'), node('a'));
    await symlink(join(dir, 'real'), join(dir, 'm', 'link'));
    expect((await readManifests(['m'], options())).manifests.map((m) => m.id)).toEqual(['Node/a']);
    expect((await readManifests(['m'], options('', true))).manifests.map((m) => m.id)).toEqual([
      'Node/a',
      'Node/r',
    ]);
  });

  it('follows a symbolic link loop once when recursive: each directory and file read once', async () => {
    await mkdir(join(dir, 'nodes', 'sub'), { recursive: true });
    await writeFile(join(dir, 'nodes', 'a.yaml'), node('a'));
    await symlink('..', join(dir, 'nodes', 'sub', 'up'));
    const set = await readManifests(['nodes'], options('', true));
    expect(set.errors).toEqual([]);
    expect(set.manifests.map((m) => m.id)).toEqual(['Node/a']);
  });

  it('stops descending at MaxDirectoryDepth when the fs cannot resolve links', async () => {
    // A file system whose every directory holds one more: a link loop, seen without realPath.
    const endless: ManifestFs = {
      readFile: async () => node('x'),
      isDirectory: async () => true,
      readDir: async () => [{ name: 'loop', isDirectory: true }],
    };
    const set = await readManifests(['top'], { ...options('', true), fs: endless });
    expect(set.errors.map(formatManifestError)).toEqual([
      `${['top', ...Array(MaxDirectoryDepth + 1).fill('loop')].join('/')}: not read: more than ${MaxDirectoryDepth} directories deep (a symbolic link loop?)`,
      'top: no *.yaml, *.yml or *.json files in the directory or below it',
    ]);
  });

  it('reports a directory without manifest files', async () => {
    await mkdir(join(dir, 'empty'));
    const set = await readManifests(['empty'], options());
    expect(set.errors.map(formatManifestError)).toEqual([
      'empty: no *.yaml, *.yml or *.json files in the directory',
    ]);
  });

  it('reads standard input for -, once, as <stdin>', async () => {
    const set = await readManifests(['-', '-'], options(node('s')));
    expect(set.manifests.map((m) => [m.source.file, m.id])).toEqual([['<stdin>', 'Node/s']]);
    expect(stdinReads).toBe(1);
  });

  it('reads a file reached twice only once', async () => {
    await mkdir(join(dir, 'm'));
    await writeFile(join(dir, 'm', 'a.yaml'), node('a'));
    const set = await readManifests(['m', join('m', 'a.yaml'), join(dir, 'm', 'a.yaml')], options());
    expect(set.manifests).toHaveLength(1);
  });

  it('reports a missing file with the system reason and goes on with the rest', async () => {
    await writeFile(join(dir, 'a.yaml'), node('a'));
    const set = await readManifests(['missing.yaml', 'a.yaml'], options());
    expect(set.errors.map(formatManifestError)).toEqual([
      'missing.yaml: cannot read: no such file or directory',
    ]);
    expect(set.manifests.map((m) => m.id)).toEqual(['Node/a']);
  });

  it('reports a file it may not read with the system reason', async () => {
    const denied = Object.assign(new Error(`EACCES: permission denied, open '${join(dir, 'secret.yaml')}'`), {
      code: 'EACCES',
    });
    const set = await readManifests(['secret.yaml'], {
      ...options(),
      fs: { ...nodeManifestFs, isDirectory: async () => false, readFile: async () => Promise.reject(denied) },
    });
    expect(set.errors.map(formatManifestError)).toEqual(['secret.yaml: cannot read: permission denied']);
  });

  it('reports a failure to read standard input', async () => {
    const set = await readManifests(['-'], {
      ...options(),
      readStdin: async () => {
        throw new Error('stream closed');
      },
    });
    expect(set.errors.map(formatManifestError)).toEqual(['<stdin>: cannot read: stream closed']);
  });

  it('keeps decoding errors of each file, named by file', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'a: [1\n');
    const set = await readManifests(['bad.yaml'], options());
    expect(set.errors).toHaveLength(1);
    expect(set.errors[0]!.file).toBe('bad.yaml');
    expect(set.errors[0]!.line).toBeDefined();
  });
});
