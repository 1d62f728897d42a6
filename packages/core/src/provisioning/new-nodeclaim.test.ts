import { describe, expect, it } from 'vitest';
import { Annotations, Labels } from '../apis/labels.js';
import { nodeClaimHashAnnotations } from '../nodepool/hash/nodepool-hash-controller.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { solve } from '../scheduling/solver/solve.js';
import type { NewClaim } from '../scheduling/solver/types.js';
import { buildSolverInput } from '../state/snapshot.js';
import { fakeInstanceTypes } from '../testing/fake-instance-types.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod } from '../testing/pod-builder.js';
import { newNodeClaim } from './new-nodeclaim.js';

const pool = aNodePool({
  metadata: { name: 'general', uid: 'pool-uid' },
  spec: {
    template: {
      metadata: { labels: { team: 'web' }, annotations: { 'example.com/owner': 'ops' } },
      spec: {
        taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
        startupTaints: [{ key: 'example.com/booting', effect: 'NoSchedule' }],
        terminationGracePeriod: '1h',
      },
    },
  },
});

function solvedClaim(): NewClaim {
  const pod = aPod({
    spec: {
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
      containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '3', memory: '1Gi' } } }],
    },
  });
  const { input } = buildSolverInput(
    { pods: [pod], nodes: [], nodeClaims: [], nodePools: [pool] },
    new Map([['general', fakeInstanceTypes()]]),
  );
  const result = solve(input);
  expect(result.unschedulable).toEqual([]);
  return result.newClaims[0]!;
}

describe('newNodeClaim', () => {
  it('builds the claim from the NodePool template and the solver claim', () => {
    const claim = solvedClaim();
    const built = newNodeClaim(pool, claim);
    if (!built.ok) throw new Error(built.reason);
    const nc = built.nodeClaim;
    expect(nc.metadata.generateName).toBe('general-');
    expect(nc.metadata.labels).toEqual({ team: 'web', [Labels.NodePool]: 'general' });
    expect(nc.metadata.annotations).toEqual({
      'example.com/owner': 'ops',
      ...nodeClaimHashAnnotations(pool),
    });
    expect(nc.metadata.annotations?.[Annotations.NodePoolHash]).toBeDefined();
    expect(nc.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        name: 'general',
        uid: 'pool-uid',
        blockOwnerDeletion: true,
      },
    ]);
    expect(nc.spec.taints).toEqual([{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }]);
    expect(nc.spec.startupTaints).toEqual([{ key: 'example.com/booting', effect: 'NoSchedule' }]);
    expect(nc.spec.terminationGracePeriod).toBe('1h');
    expect(nc.spec.expireAfter).toBe('720h');
    expect(nc.spec.nodeClassRef).toEqual(pool.spec.template.spec.nodeClassRef);
    const types = nc.spec.requirements.find((r) => r.key === Labels.InstanceType);
    expect(types).toEqual({
      key: Labels.InstanceType,
      operator: 'In',
      values: claim.instanceTypes.map((t) => t.name).sort(),
    });
    // 3 CPU does not fit fake-small (2 CPU).
    expect(types?.values).not.toContain('fake-small');
    expect(nc.spec.requirements.find((r) => r.key === Labels.NodePool)?.values).toEqual(['general']);
    expect(nc.spec.resources?.requests).toMatchObject({ cpu: '3', memory: '1Gi' });
  });

  it('drops the placeholder hostname and reports a claim the CRD would refuse', () => {
    const claim = solvedClaim();
    const withHost = claim.requirements
      .copy()
      .add(Requirement.create(Labels.Hostname, 'In', ['hostname-placeholder-0001']));
    const built = newNodeClaim(pool, { ...claim, requirements: withHost });
    expect(built.ok && built.nodeClaim.spec.requirements.some((r) => r.key === Labels.Hostname)).toBe(false);

    const many = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    const tooMany = claim.requirements.copy().add(Requirement.create('example.com/rack', 'In', many));
    const refused = newNodeClaim(pool, { ...claim, requirements: tooMany });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toMatch(
      /NodeClaim for NodePool general would be invalid: .*at most 1000 values/s,
    );
  });
});
