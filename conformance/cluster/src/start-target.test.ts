import { describe, expect, it } from 'vitest';
import type { LaunchedCluster } from './k3s-cluster.js';
import { startClusterTarget, type TargetStarters } from './start-target.js';

function recordingStarters() {
  const calls: { target: string; options: object }[] = [];
  const launched = (target: string): LaunchedCluster => ({
    kubeconfigPath: `/tmp/${target}/kubeconfig`,
    server: 'https://127.0.0.1:6443',
    connection: { server: 'https://127.0.0.1:6443', ca: '', cert: '', key: '' },
    stop: async () => {},
  });
  const starters: TargetStarters = {
    binary: async (options) => {
      calls.push({ target: 'binary', options });
      return launched('binary');
    },
    k3s: async (options) => {
      calls.push({ target: 'k3s', options });
      return launched('k3s');
    },
    kind: async (options) => {
      calls.push({ target: 'kind', options });
      return launched('kind');
    },
  };
  return { calls, starters };
}

describe('startClusterTarget', () => {
  it('starts the binary cluster with kwok managing annotated Nodes only', async () => {
    const { calls, starters } = recordingStarters();
    const cluster = await startClusterTarget('binary', {}, starters);
    expect(cluster.kubeconfigPath).toBe('/tmp/binary/kubeconfig');
    expect(calls).toEqual([{ target: 'binary', options: { kwokManages: 'annotated' } }]);
  });

  it('starts k3s for the k3s target, passing keepDir on', async () => {
    const { calls, starters } = recordingStarters();
    const cluster = await startClusterTarget('k3s', { keepDir: true }, starters);
    expect(cluster.kubeconfigPath).toBe('/tmp/k3s/kubeconfig');
    expect(calls).toEqual([{ target: 'k3s', options: { keepDir: true } }]);
  });

  it('starts kind for the kind target, and nothing else', async () => {
    const { calls, starters } = recordingStarters();
    const cluster = await startClusterTarget('kind', {}, starters);
    expect(cluster.kubeconfigPath).toBe('/tmp/kind/kubeconfig');
    expect(calls).toEqual([{ target: 'kind', options: {} }]);
  });
});
