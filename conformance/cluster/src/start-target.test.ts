import { describe, expect, it } from 'vitest';
import type { LaunchedCluster } from './launched-cluster.js';
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

  it('passes keepDir on to the started cluster', async () => {
    const { calls, starters } = recordingStarters();
    await startClusterTarget('kind', { keepDir: true }, starters);
    await startClusterTarget('binary', { keepDir: true }, starters);
    expect(calls).toEqual([
      { target: 'kind', options: { keepDir: true } },
      { target: 'binary', options: { kwokManages: 'annotated', keepDir: true } },
    ]);
  });

  it("adds component flags to the binary cluster's components, not to kind's", async () => {
    const { calls, starters } = recordingStarters();
    const componentArgs = { 'kube-controller-manager': ['--kube-api-qps=300'] };
    await startClusterTarget('binary', { componentArgs }, starters);
    await startClusterTarget('kind', { componentArgs }, starters);
    expect(calls).toEqual([
      { target: 'binary', options: { kwokManages: 'annotated', extraArgs: componentArgs } },
      { target: 'kind', options: {} },
    ]);
  });

  it('starts kind for the kind target, and nothing else', async () => {
    const { calls, starters } = recordingStarters();
    const cluster = await startClusterTarget('kind', {}, starters);
    expect(cluster.kubeconfigPath).toBe('/tmp/kind/kubeconfig');
    expect(calls).toEqual([{ target: 'kind', options: {} }]);
  });
});
