import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  K3S_IMAGE,
  K3S_SERVER_TAINT,
  k3sServerCommand,
  noDockerEngineError,
  startK3sCluster,
} from './k3s-cluster.js';
import { kwokInClusterManifests } from './kwok-manifests.js';

describe('k3sServerCommand', () => {
  const local = k3sServerCommand({ host: 'localhost', nodeMonitorGracePeriodSeconds: 40 });

  it('runs a server without the add-ons that would put pods of their own on the cluster', () => {
    expect(local[0]).toBe('server');
    const disabled = local
      .find((a) => a.startsWith('--disable='))
      ?.slice('--disable='.length)
      .split(',');
    expect(disabled).toEqual(
      expect.arrayContaining(['traefik', 'servicelb', 'metrics-server', 'local-storage', 'coredns']),
    );
  });

  it('taints the server node with a taint kwok tolerates and test pods do not', () => {
    expect(local).toContain('--node-taint=CriticalAddonsOnly=true:NoExecute');
    const deployment = kwokInClusterManifests({
      stages: [],
      tolerateTaintKeys: [K3S_SERVER_TAINT.key],
    }).deployment;
    const tolerations = (deployment.spec as { template: { spec: { tolerations: { key: string }[] } } })
      .template.spec.tolerations;
    expect(tolerations.map((t) => t.key)).toEqual([K3S_SERVER_TAINT.key]);
  });

  it("gives the controller manager the binary cluster's node monitoring", () => {
    expect(k3sServerCommand({ host: 'localhost', nodeMonitorGracePeriodSeconds: 55 })).toEqual(
      expect.arrayContaining([
        '--kube-controller-manager-arg=node-monitor-grace-period=55s',
        '--kube-controller-manager-arg=node-monitor-period=5s',
      ]),
    );
  });

  it('adds a remote engine host to the serving certificate, not a local one', () => {
    expect(local.some((a) => a.startsWith('--tls-san'))).toBe(false);
    expect(
      k3sServerCommand({ host: '127.0.0.1', nodeMonitorGracePeriodSeconds: 40 }).some((a) =>
        a.startsWith('--tls-san'),
      ),
    ).toBe(false);
    expect(k3sServerCommand({ host: '172.17.0.1', nodeMonitorGracePeriodSeconds: 40 })).toContain(
      '--tls-san=172.17.0.1',
    );
  });
});

describe('K3S_IMAGE', () => {
  it('pins the Kubernetes release the binary cluster builds', () => {
    expect(K3S_IMAGE).toBe('rancher/k3s:v1.36.5-k3s1');
  });
});

describe('noDockerEngineError', () => {
  it('names the target, the cause and the way out', () => {
    const error = noDockerEngineError(new Error('Could not find a working container runtime strategy'));
    expect(error.message).toContain('NODEWRIGHT_CLUSTER=k3s');
    expect(error.message).toContain('Could not find a working container runtime strategy');
    expect(error.message).toContain('DOCKER_HOST');
    expect(error.message).toContain('unset NODEWRIGHT_CLUSTER');
  });
});

describe('startK3sCluster', () => {
  const noEngine = (): Promise<string> =>
    Promise.reject(new Error('Could not find a working container runtime strategy'));

  it('fails at once without a Docker engine, leaving nothing behind', async () => {
    const baseDir = await mkdtemp(join(tmpdir(), 'nw-k3s-test-'));
    const lines: string[] = [];
    try {
      await expect(
        startK3sCluster({ baseDir, log: (l) => lines.push(l) }, { runtimeHost: noEngine }),
      ).rejects.toThrow(/needs a Docker engine.*Could not find a working container runtime strategy/);
      expect(await readdir(baseDir)).toEqual([]);
      expect(lines).toEqual([]);
    } finally {
      await rm(baseDir, { recursive: true, force: true });
    }
  });

  it('refuses a node monitor grace period shorter than the lease before looking for an engine', async () => {
    let asked = 0;
    const runtimeHost = (): Promise<string> => {
      asked++;
      return noEngine();
    };
    await expect(
      startK3sCluster({ nodeLeaseDurationSeconds: 40, nodeMonitorGracePeriodSeconds: 30 }, { runtimeHost }),
    ).rejects.toThrow('nodeMonitorGracePeriodSeconds (30) is shorter than');
    expect(asked).toBe(0);
  });
});
