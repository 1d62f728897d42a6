import { type Pod, podSchema } from '@nodewright/core/apis';
import { type InstanceType, newInstanceType, newOffering } from '@nodewright/core/cloudprovider';
import {
  parseResourceList,
  Requirement,
  Requirements,
  type ResourceList,
  type SolverInput,
  type SolverResult,
} from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { type ReportFunctions, renderScheduleText, scheduleReport } from './schedule-report.js';

const pod = (name: string, cpu: string, namespace = 'default'): Pod =>
  podSchema.parse({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '1Gi' } } }] },
  });

const type = (name: string, cpu: number, price: number): InstanceType =>
  newInstanceType({
    name,
    requirements: new Requirements([Requirement.create('node.kubernetes.io/instance-type', 'In', [name])]),
    offerings: [newOffering({ zone: 'zone-a', capacityType: 'spot', price })],
    capacity: parseResourceList({ cpu, memory: `${cpu * 4}Gi`, pods: 110 }),
  });

const requestsOf = (p: Pod): ResourceList =>
  parseResourceList({ ...p.spec.containers[0]!.resources!.requests, pods: 1 });

/** A stand-in bound that records what it was asked, so the test can check the pods it got. */
function recordingBound(perHour: number) {
  const asked: { pods: number; types: string[] }[] = [];
  const functions: ReportFunctions = {
    podRequests: requestsOf,
    lowerBound: (requests, types) => {
      asked.push({ pods: [...requests].length, types: [...types].map((t) => t.name) });
      return { perHour, binding: ['cpu'] };
    },
  };
  return { asked, functions };
}

const small = type('c-2x', 2, 0.03);
const large = type('c-4x', 4, 0.058);
const web1 = pod('web-1', '500m');
const web2 = pod('web-2', '1');
const api = pod('api-1', '250m', 'shop');
const huge = pod('huge', '200');

const input: SolverInput = {
  pods: [web1, web2, api, huge],
  existing: [],
  daemonSets: [],
  nodePools: [],
  instanceTypes: new Map([
    ['default', [small, large]],
    ['other', [large]],
  ]),
};

const requirements = new Requirements([
  Requirement.create('karpenter.sh/nodepool', 'In', ['default']),
  Requirement.create('node.kubernetes.io/instance-type', 'In', ['c-2x', 'c-4x']),
  Requirement.create('topology.kubernetes.io/zone', 'In', ['zone-a']),
]);

const result: SolverResult = {
  newClaims: [
    {
      nodePool: 'default',
      instanceTypes: [small, large],
      requirements,
      pods: [web2, web1],
      requests: parseResourceList({ cpu: '1600m', memory: '2148Mi', pods: 3 }),
      price: 0.030000001,
    },
  ],
  existing: [
    { name: 'node-a', pods: [api] },
    { name: 'node-b', pods: [] },
  ],
  unschedulable: [{ pod: huge, reason: 'no instance type has 200 cpu' }],
};

describe('scheduleReport', () => {
  it("has the contract's shape: claims, existing nodes with new pods, unschedulable, summary", () => {
    const { functions } = recordingBound(0.0123456789);
    const report = scheduleReport(input, result, functions, { ignored: [], notes: [] });
    expect(report.nodeClaims).toEqual([
      {
        nodePool: 'default',
        instanceTypes: ['c-2x', 'c-4x'],
        requirements: [
          { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c-2x', 'c-4x'] },
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
        ],
        pods: ['default/web-2', 'default/web-1'],
        requests: { cpu: '1600m', memory: '2148Mi', pods: '3' },
        price: 0.030000001,
      },
    ]);
    expect(report.existingNodes).toEqual([{ name: 'node-a', pods: ['shop/api-1'] }]);
    expect(report.unschedulable).toEqual([{ pod: 'default/huge', reason: 'no instance type has 200 cpu' }]);
    expect(report.summary).toEqual({
      pods: 4,
      scheduled: 3,
      nodeClaims: 1,
      pricePerHour: 0.03,
      lowerBoundPerHour: 0.012345,
      lowerBoundBy: ['cpu'],
    });
  });

  it('bounds only the pods on new claims, over every NodePool type once', () => {
    const { asked, functions } = recordingBound(0.01);
    scheduleReport(input, result, functions, { ignored: [], notes: [] });
    expect(asked).toEqual([{ pods: 2, types: ['c-2x', 'c-4x'] }]);
  });

  it('reports an infinite bound as null, and keeps ignored pods and notes', () => {
    const { functions } = recordingBound(Number.POSITIVE_INFINITY);
    const report = scheduleReport(input, result, functions, {
      ignored: [{ pod: 'kube-system/ds', reason: 'owned by DaemonSet' }],
      notes: ['NodePool x is not used: it is being deleted'],
    });
    expect(report.summary.lowerBoundPerHour).toBeNull();
    expect(report.ignored).toEqual([{ pod: 'kube-system/ds', reason: 'owned by DaemonSet' }]);
    expect(report.notes).toEqual(['NodePool x is not used: it is being deleted']);
  });
});

describe('renderScheduleText', () => {
  it('prints a block per claim, existing nodes, unschedulable pods, then the summary', () => {
    const { functions } = recordingBound(0.025);
    const text = renderScheduleText(
      scheduleReport(input, result, functions, {
        ignored: [{ pod: 'kube-system/ds', reason: 'owned by DaemonSet kube-system/ds' }],
        notes: ['NodePool x is not used: it is being deleted'],
      }),
    );
    expect(text).toBe(`NodeClaim 1 from NodePool default: 2 pods, $0.0300/h
  instance types: c-2x, c-4x
  requirements:   karpenter.sh/nodepool In [default]; node.kubernetes.io/instance-type In [c-2x, c-4x]; topology.kubernetes.io/zone In [zone-a]
  requests:       cpu=1600m memory=2148Mi pods=3
  pods:           default/web-2, default/web-1

Existing node node-a: shop/api-1

Unschedulable (1):
  default/huge: no instance type has 200 cpu

Ignored (1):
  kube-system/ds: owned by DaemonSet kube-system/ds

Note: NodePool x is not used: it is being deleted

Summary: 4 pending pods, 3 scheduled (2 on 1 new NodeClaim, 1 on existing nodes), 1 unschedulable
Price: $0.0300/h for the new NodeClaims, 1.20x the lower bound $0.0250/h (set by cpu): no packing of these pods onto new nodes can cost less
`);
  });

  it('abbreviates long type lists', () => {
    const many = Array.from({ length: 8 }, (_, i) => type(`t-${i}`, 2, 0.1 + i / 100));
    const { functions } = recordingBound(0);
    const text = renderScheduleText(
      scheduleReport(
        input,
        { ...result, newClaims: [{ ...result.newClaims[0]!, instanceTypes: many }] },
        functions,
        { ignored: [], notes: [] },
      ),
    );
    expect(text).toContain('  instance types: t-0, t-1, t-2, t-3, t-4 and 3 more\n');
    expect(text).toContain(
      'Price: $0.0300/h for the new NodeClaims; lower bound $0.0000/h (set by cpu): no packing of these pods onto new nodes can cost less\n',
    );
  });

  it('speaks of one pod and one claim in the singular, and says when nothing new is bought', () => {
    const { functions } = recordingBound(0.02);
    const one = scheduleReport(
      { ...input, pods: [web1] },
      { newClaims: [{ ...result.newClaims[0]!, pods: [web1] }], existing: [], unschedulable: [] },
      functions,
      { ignored: [], notes: [] },
    );
    const text = renderScheduleText(one);
    expect(text).toContain('NodeClaim 1 from NodePool default: 1 pod, $0.0300/h\n');
    expect(text).toContain('Summary: 1 pending pod, 1 scheduled (1 on 1 new NodeClaim), 0 unschedulable\n');
    const none = renderScheduleText(
      scheduleReport(
        { ...input, pods: [api] },
        { newClaims: [], existing: [{ name: 'node-a', pods: [api] }], unschedulable: [] },
        functions,
        {
          ignored: [],
          notes: [],
        },
      ),
    );
    expect(none).toContain('Summary: 1 pending pod, 1 scheduled (1 on existing nodes), 0 unschedulable\n');
    expect(none).toContain('Price: $0.0000/h: no new NodeClaims to buy\n');
  });
});
