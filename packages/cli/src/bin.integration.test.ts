import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

// The built CLI, run as users run it: `node packages/cli/dist/bin.js` from the repository root.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');

function nodewright(args: string[], stdin?: string) {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    input: stdin ?? '',
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('nodewright on another Node, and through bin/nodewright', () => {
  // The system Node of the build machine (20): the bin must refuse it with the fix, not a stack.
  const systemNode = '/usr/bin/node';

  it('tells a user of Node 20 how to run it, in one line, exit 1', () => {
    const version = spawnSync(systemNode, ['--version'], { encoding: 'utf8' });
    if (version.error) throw new Error(`${systemNode} is needed for this test: ${version.error.message}`);
    expect(version.stdout).toMatch(/^v2[0-3]\./);
    const result = spawnSync(systemNode, [bin, 'validate', '-f', 'x'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `nodewright needs Node 24 (this is Node ${version.stdout.trim().slice(1)}); run it through pnpm (pnpm -s nodewright ...), bin/nodewright, or install Node 24\n`,
    );
  });

  it("runs the CLI on the project's Node from bin/nodewright, with the CLI's own stderr and exit code", () => {
    const result = spawnSync(join(root, 'bin', 'nodewright'), ['validate', '-f', 'no-such-file.yaml'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: '/usr/bin:/bin' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('no-such-file.yaml: cannot read: no such file or directory\n');
  });
});

describe('nodewright (built bin.js)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodewright-bin-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('validates a file: OK lines on stdout, contract-format errors on stderr, exit 1', async () => {
    const path = join(dir, 'pools.yaml');
    await writeFile(
      path,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: web, namespace: default}',
        'spec:',
        '  containers:',
        '    - name: web',
        '      image: nginx',
        '---',
        'apiVersion: karpenter.sh/v1',
        'kind: NodePool',
        'metadata: {name: default}',
        'spec:',
        '  template:',
        '    spec:',
        '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
        '      requirements:',
        '        - {key: kubernetes.io/arch, operator: In, values: [amd64]}',
        '        - {key: karpenter.sh/capacity-type, operator: Bogus, values: [spot]}',
      ].join('\n'),
    );
    const { code, out, err } = nodewright(['validate', '-f', path]);
    expect(code).toBe(1);
    expect(out).toBe('OK Pod/web\n');
    expect(err).toMatch(
      new RegExp(
        `^${path.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}: NodePool/default: spec\\.template\\.spec\\.requirements\\[1\\]\\.operator: .+ \\(line 18\\)$`,
        'm',
      ),
    );
  });

  it('reads standard input and prints CRDs as a YAML stream', () => {
    const crds = nodewright(['crds']);
    expect(crds.code).toBe(0);
    const names = parseAllDocuments(crds.out).map(
      (d) => (d.toJS() as { metadata: { name: string } }).metadata.name,
    );
    expect(names).toEqual(expect.arrayContaining(['nodepools.karpenter.sh', 'nodeclaims.karpenter.sh']));
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: busybox}]\n';
    const validated = nodewright(['validate', '-f', '-'], pod);
    expect(validated).toEqual({ code: 0, out: 'OK Pod/p\n', err: '' });
  });

  it('exits 2 with usage on a usage error', () => {
    const { code, out, err } = nodewright(['validate']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('usage: nodewright validate -f FILE');
  });
});
