import { FakeClock } from '@nodewright/core/clock';
import { KubeError, MemoryCluster, Nodes, Pods } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { createCliServices } from '../compose.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createAll, memoryCluster, memoryConnector } from '../testing/memory-live-cluster.js';
import { describeReadFailure } from './describe-failure.js';
import { readLiveObjects } from './read-live-objects.js';

const registry = createCliServices(InTreeProviders).registry;

describe('readLiveObjects', () => {
  it('reads every kind a decision needs as manifests named after the context, without managedFields', async () => {
    const cluster = memoryCluster();
    await createAll(
      cluster,
      `apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: default}
spec: {containers: [{name: a, image: a}]}
`,
      [Nodes, Pods],
    );
    const read = await readLiveObjects(await memoryConnector(cluster)({}), registry);
    expect(read.sourceName).toBe('<cluster memory>');
    expect(read.manifests.map((m) => m.id)).toEqual(['Node/n1', 'Pod/p1']);
    expect(read.manifests.every((m) => m.source.file === '<cluster memory>')).toBe(true);
    expect((read.manifests[0]!.object.metadata as Record<string, unknown>).managedFields).toBeUndefined();
    expect(read.notes).toEqual([]);
  });

  it('notes karpenter.sh CRDs that are not installed instead of failing', async () => {
    const bare = new MemoryCluster({ clock: new FakeClock(0) });
    const read = await readLiveObjects(await memoryConnector(bare)({}), registry);
    expect(read.notes).toEqual([
      'no NodeClaims: the karpenter.sh CRDs are not installed (nodewright crds | kubectl apply -f -)',
      'no NodePools: the karpenter.sh CRDs are not installed (nodewright crds | kubectl apply -f -)',
    ]);
  });

  it('fails on a refused kind it cannot do without, naming the verb and resource (the first in order)', async () => {
    const connect = memoryConnector(memoryCluster(), {
      forbidden: ['pods', 'nodes', 'nodepools.karpenter.sh'],
    });
    await expect(readLiveObjects(await connect({}), registry)).rejects.toThrow(
      /^forbidden: cannot list nodepools\.karpenter\.sh in context memory: .*; grant list on nodepools\.karpenter\.sh/,
    );
  });
});

describe('describeReadFailure', () => {
  const cluster = { name: 'prod', server: 'https://k:6443' };
  it('says refused credentials and other server errors in a line', () => {
    expect(
      describeReadFailure(new KubeError(401, 'Unknown', 'Unauthorized'), 'list', Pods, cluster).message,
    ).toBe('unauthorized: https://k:6443 refused the credentials of context prod: Unauthorized');
    expect(
      describeReadFailure(new KubeError(500, 'InternalError', 'etcd down'), 'get', Nodes, cluster).message,
    ).toBe('cannot get nodes in context prod: etcd down');
  });

  it('rethrows what is not an API error: a bug, not a cluster problem', () => {
    const bug = new TypeError('x is undefined');
    expect(() => describeReadFailure(bug, 'list', Pods, cluster)).toThrow(bug);
  });
});
