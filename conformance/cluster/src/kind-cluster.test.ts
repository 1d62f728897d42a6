import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandOutput, type CommandRunner, KIND_NODE_TAINT, startKindCluster } from './kind-cluster.js';

const pem = (what: string) => `-----BEGIN ${what}-----\nAAAA\n-----END ${what}-----\n`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** What `kubectl config view --raw --minify -o json` prints for kind's kubeconfig. */
const KindKubeconfigJson = JSON.stringify({
  'current-context': 'kind-nw',
  contexts: [{ name: 'kind-nw', context: { cluster: 'kind-nw', user: 'kind-nw' } }],
  clusters: [
    {
      name: 'kind-nw',
      cluster: { server: 'https://127.0.0.1:40123', 'certificate-authority-data': b64(pem('CERTIFICATE')) },
    },
  ],
  users: [
    {
      name: 'kind-nw',
      user: {
        'client-certificate-data': b64(pem('CERTIFICATE')),
        'client-key-data': b64(pem('RSA PRIVATE KEY')),
      },
    },
  ],
});

/** A runner answering as the scripts and tools do, recording each call; `fail` names a step's tool to fail. */
function fakeRunner(fail?: (command: string, args: readonly string[]) => boolean) {
  const calls: string[] = [];
  const run: CommandRunner = async (command, args) => {
    const line = [basename(command), ...args.map((a) => (a.startsWith('/') ? basename(a) : a))].join(' ');
    calls.push(line);
    const ok = (stdout: string): CommandOutput => ({ code: 0, stdout, stderr: '' });
    if (fail?.(command, args)) return { code: 1, stdout: '', stderr: 'boom: it broke' };
    if (args[0]?.endsWith('build-kind.sh')) return ok('/cache/kind/bin\n');
    if (args[0]?.endsWith('build-node-image.sh')) {
      return ok(args[1] === '--bin-dir' ? '/cache/node/bin\n' : 'nodewright-local/kind-node:v1.36.5-abc\n');
    }
    if (basename(command) === 'kubectl' && args[0] === 'config') return ok(KindKubeconfigJson);
    return ok('');
  };
  return { calls, run };
}

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'kind-cluster-test-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('startKindCluster', () => {
  it('builds, creates from the local image, taints the node, installs kwok and writes a JSON kubeconfig', async () => {
    const { calls, run } = fakeRunner();
    const cluster = await startKindCluster({ name: 'nw', baseDir: base, log: () => {} }, run);
    expect(calls).toEqual([
      'bash build-kind.sh',
      'bash build-node-image.sh',
      'bash build-node-image.sh --bin-dir',
      'kind create cluster --name nw --image nodewright-local/kind-node:v1.36.5-abc --config cluster.yaml --kubeconfig kind-kubeconfig.yaml --wait 180s',
      `kubectl --kubeconfig kind-kubeconfig.yaml taint node nw-control-plane ${KIND_NODE_TAINT.key}=:NoSchedule --overwrite`,
      'bash install-kwok.sh nw ',
      expect.stringMatching(/^bash -c .* kubectl --kubeconfig kind-kubeconfig.yaml -n default$/),
      'kubectl config view --raw --minify -o json --kubeconfig kind-kubeconfig.yaml',
    ]);
    expect(cluster.server).toBe('https://127.0.0.1:40123');
    expect(cluster.connection.key).toBe(pem('RSA PRIVATE KEY'));
    const written = JSON.parse(readFileSync(cluster.kubeconfigPath, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
      users: { user: Record<string, string> }[];
    };
    expect(written.clusters[0]!.cluster.server).toBe('https://127.0.0.1:40123');
    expect(written.users[0]!.user['client-key-data']).toBe(b64(pem('RSA PRIVATE KEY')));

    await cluster.stop();
    await cluster.stop();
    expect(calls.filter((c) => c.startsWith('kind delete'))).toEqual(['kind delete cluster --name nw']);
    expect(existsSync(cluster.dir)).toBe(false);
  });

  it('deletes the cluster it created when a later step fails, naming the step', async () => {
    const { calls, run } = fakeRunner((_, args) => args[0]?.endsWith('install-kwok.sh') ?? false);
    await expect(startKindCluster({ name: 'nw', baseDir: base, log: () => {} }, run)).rejects.toThrow(
      /kind cluster start failed after .*installing kwok failed \(exit 1\): boom: it broke/,
    );
    expect(calls.at(-1)).toBe('kind delete cluster --name nw');
  });

  it('creates nothing, and so deletes nothing, when a build fails', async () => {
    const { calls, run } = fakeRunner((_, args) => args[0]?.endsWith('build-node-image.sh') ?? false);
    await expect(startKindCluster({ name: 'nw', baseDir: base, log: () => {} }, run)).rejects.toThrow(
      /building the node image failed/,
    );
    expect(calls.some((c) => c.startsWith('kind '))).toBe(false);
  });
});
