import { describe, expect, it } from 'vitest';
import { Annotations, Labels } from '../apis/labels.js';
import { withValue } from '../apis/v1/examples.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../apis/v1/nodepool-hash.js';
import { resourceType } from '../kube/resource-type.js';
import { NodeClaims, NodePools } from '../kube/resource-types.js';
import { getCondition } from '../lifecycle/conditions.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { aNodeClaim } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { NodePoolCounterController, nodePoolUsage } from './counter/nodepool-counter-controller.js';
import { NodePoolHashController, nodeClaimHashAnnotations } from './hash/nodepool-hash-controller.js';
import { readinessFromReadyCondition } from './readiness/node-class-readiness.js';
import {
  NodePoolReadinessController,
  validationCondition,
} from './readiness/nodepool-readiness-controller.js';

const TestNodeClasses = resourceType({
  apiVersion: 'karpenter.test.sh/v1',
  kind: 'TestNodeClass',
  namespaced: false,
  statusSubresource: true,
});

describe('nodepool.hash', () => {
  it('stamps the template hash and version, and follows template edits but not requirement edits', async () => {
    const env = new ControllerEnv();
    await env.start(new NodePoolHashController(env));
    await env.cluster.create(NodePools, aNodePool());
    await env.settle();
    let pool = (await env.find(NodePools, 'default'))!;
    const first = pool.metadata.annotations?.[Annotations.NodePoolHash];
    expect(first).toBe(nodePoolTemplateHash(aNodePool()));
    expect(pool.metadata.annotations?.[Annotations.NodePoolHashVersion]).toBe(NodePoolHashVersion);
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { template: { metadata: { labels: { team: 'b' } } } } },
    );
    await env.settle();
    pool = (await env.find(NodePools, 'default'))!;
    const second = pool.metadata.annotations?.[Annotations.NodePoolHash];
    expect(second).not.toBe(first);
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      {
        spec: {
          template: {
            spec: { requirements: [{ key: Labels.CapacityType, operator: 'In', values: ['spot'] }] },
          },
        },
      },
    );
    await env.settle();
    expect((await env.find(NodePools, 'default'))?.metadata.annotations?.[Annotations.NodePoolHash]).toBe(
      second,
    );
  });

  it('re-stamps the claims of a pool whose hash version changed, so they do not look drifted', async () => {
    const env = new ControllerEnv();
    const old = { [Annotations.NodePoolHash]: 'old-hash', [Annotations.NodePoolHashVersion]: 'v3' };
    await env.cluster.create(NodePools, aNodePool({ metadata: { annotations: old } }));
    await env.cluster.create(NodeClaims, aNodeClaim({ metadata: { name: 'c1', annotations: old } }));
    await env.start(new NodePoolHashController(env));
    const expected = nodeClaimHashAnnotations(aNodePool());
    expect((await env.find(NodeClaims, 'c1'))?.metadata.annotations).toEqual(expected);
    expect((await env.find(NodePools, 'default'))?.metadata.annotations).toEqual(expected);
  });
});

describe('nodepool.counter', () => {
  it('adds up capacity and counts claims', () => {
    const usage = nodePoolUsage([
      aNodeClaim({ status: { capacity: { cpu: '2', memory: '4Gi' } } }),
      aNodeClaim({ status: { capacity: { cpu: '500m', memory: '512Mi', 'nvidia.com/gpu': '1' } } }),
      aNodeClaim(),
    ]);
    expect(usage).toEqual({ resources: { cpu: '2500m', memory: '4608Mi', 'nvidia.com/gpu': '1' }, nodes: 3 });
  });

  it('keeps status.resources and status.nodes in step with the claims, removing resources that go', async () => {
    const env = new ControllerEnv();
    await env.start(new NodePoolCounterController(env));
    await env.cluster.create(NodePools, aNodePool());
    const gpu = await env.create(
      NodeClaims,
      aNodeClaim({ metadata: { name: 'gpu' }, status: { capacity: { cpu: '8', 'nvidia.com/gpu': '1' } } }),
    );
    await env.create(
      NodeClaims,
      aNodeClaim({ metadata: { name: 'small' }, status: { capacity: { cpu: '2' } } }),
    );
    await env.create(
      NodeClaims,
      aNodeClaim({
        metadata: { name: 'other', labels: { [Labels.NodePool]: 'other' } },
        status: { capacity: { cpu: '64' } },
      }),
    );
    await env.settle();
    let pool = await env.find(NodePools, 'default');
    expect(pool?.status).toMatchObject({ nodes: 2, resources: { cpu: '10', 'nvidia.com/gpu': '1' } });
    await env.cluster.delete(NodeClaims, { name: gpu.metadata.name ?? '' });
    await env.settle();
    pool = await env.find(NodePools, 'default');
    expect(pool?.status?.nodes).toBe(1);
    expect(pool?.status?.resources).toEqual({ cpu: '2' });
  });
});

describe('nodepool.counter watch', () => {
  it('reconciles the pool for changes that move its count, and not for other status updates', () => {
    const controller = new NodePoolCounterController({ cluster: new ControllerEnv().cluster });
    const claims = controller.watches[1]!;
    const launched = aNodeClaim({ metadata: { name: 'a' }, status: { capacity: { cpu: '2' } } });
    const registered = { ...launched, status: { ...launched.status, nodeName: 'node-a' } };
    const bigger = { ...launched, status: { capacity: { cpu: '4' } } };
    const moved = { ...launched, metadata: { ...launched.metadata, labels: { [Labels.NodePool]: 'other' } } };
    const keys = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: NodeClaim, previous?: NodeClaim) =>
      [
        ...claims.map({ type, object, ...(previous === undefined ? {} : { previous }) }, undefined as never),
      ].map((k) => k.name);
    expect(keys('ADDED', launched)).toEqual(['default']);
    expect(keys('MODIFIED', registered, launched)).toEqual([]);
    expect(keys('MODIFIED', bigger, launched)).toEqual(['default']);
    expect(keys('MODIFIED', moved, launched).sort()).toEqual(['default', 'other']);
    expect(keys('DELETED', registered, registered)).toEqual(['default']);
  });
});

describe('nodepool.readiness', () => {
  it('reports validation failures', () => {
    expect(validationCondition(aNodePool()).status).toBe('True');
    const invalid = validationCondition(withValue(aNodePool(), ['spec', 'weight'], 500));
    expect(invalid).toMatchObject({ status: 'False', reason: 'NodePoolValidationFailed' });
    expect(invalid.message).toMatch(/weight/);
  });

  it('is Ready once valid and its NodeClass is Ready, following the NodeClass through its watch', async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(
      new NodePoolReadinessController({
        cluster: env.cluster,
        clock: env.clock,
        nodeClassReadiness: readinessFromReadyCondition(env.cluster, [TestNodeClasses]),
        nodeClassTypes: [TestNodeClasses],
      }),
    );
    await env.cluster.create(NodePools, aNodePool());
    await env.settle();
    let pool = await env.find(NodePools, 'default');
    expect(getCondition(pool?.status?.conditions, 'ValidationSucceeded')?.status).toBe('True');
    expect(getCondition(pool?.status?.conditions, 'NodeClassReady')).toMatchObject({
      status: 'False',
      reason: 'NodeClassNotFound',
    });
    expect(getCondition(pool?.status?.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'UnhealthyDependents',
    });

    await env.create(TestNodeClasses, {
      apiVersion: 'karpenter.test.sh/v1',
      kind: 'TestNodeClass',
      metadata: { name: 'default' },
      status: {
        conditions: [{ type: 'Ready', status: 'False', reason: 'SubnetsNotFound', message: 'no subnets' }],
      },
    } as never);
    await env.settle();
    pool = await env.find(NodePools, 'default');
    expect(getCondition(pool?.status?.conditions, 'NodeClassReady')).toMatchObject({
      status: 'False',
      reason: 'SubnetsNotFound',
      message: 'no subnets',
    });
    await env.cluster.patchStatus(
      TestNodeClasses,
      { name: 'default' },
      {
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '' }] },
      },
    );
    await env.settle();
    pool = await env.find(NodePools, 'default');
    expect(getCondition(pool?.status?.conditions, 'Ready')?.status).toBe('True');
    expect(getCondition(pool?.status?.conditions, 'NodeClassReady')?.status).toBe('True');
  });
});
