import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { podSchema } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import { nodePoolSchema } from '../../apis/v1/nodepool.js';
import { type InstanceType, newInstanceType } from '../../cloudprovider/instance-type.js';
import { newOffering } from '../../cloudprovider/offering.js';
import { podRequests } from '../pod/requests.js';
import { Requirement } from '../requirements/requirement.js';
import { Requirements } from '../requirements/requirements.js';
import { parseResourceList } from '../resources/resource-list.js';
import { solve } from '../solver/solve.js';
import { explainLowerBound, lowerBoundPerHour } from './lower-bound.js';

const Zones = ['zone-a', 'zone-b'];

type Generated<A> = A extends fc.Arbitrary<infer T> ? T : never;
type TypeSpec = Generated<typeof typeArb>;
type PodSpec = Generated<typeof podArb>;

const typeArb = fc.record({
  cpu: fc.integer({ min: 1, max: 32 }),
  memoryGiPerCpu: fc.constantFrom(1, 2, 4, 8),
  pods: fc.integer({ min: 4, max: 110 }),
  price: fc.integer({ min: 1, max: 500 }).map((n) => n / 100),
  spotFactor: fc.constantFrom(0.5, 0.7, 1),
  unavailable: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

const podArb = fc.record({
  cpuMilli: fc.integer({ min: 50, max: 8000 }),
  memoryMi: fc.integer({ min: 64, max: 16384 }),
  zone: fc.option(fc.constantFrom(...Zones), { nil: undefined }),
  spread: fc.boolean(),
});

function instanceType(i: number, t: TypeSpec): InstanceType {
  const name = `t-${i}`;
  const offerings = Zones.flatMap((zone, z) => [
    newOffering({ zone, capacityType: 'on-demand', price: t.price, available: !t.unavailable[2 * z] }),
    newOffering({
      zone,
      capacityType: 'spot',
      price: t.price * t.spotFactor,
      available: !t.unavailable[2 * z + 1],
    }),
  ]);
  return newInstanceType({
    name,
    requirements: new Requirements([
      Requirement.create(Labels.InstanceType, 'In', [name]),
      Requirement.create(Labels.Arch, 'In', ['amd64']),
      Requirement.create(Labels.OS, 'In', ['linux']),
      Requirement.create(Labels.Zone, 'In', Zones),
      Requirement.create(Labels.CapacityType, 'In', ['on-demand', 'spot']),
    ]),
    offerings,
    capacity: parseResourceList({ cpu: t.cpu, memory: `${t.cpu * t.memoryGiPerCpu}Gi`, pods: t.pods }),
    overhead: {
      kubeReserved: parseResourceList({ cpu: '100m', memory: '100Mi' }),
      systemReserved: new Map(),
      evictionThreshold: new Map(),
    },
  });
}

const pool = nodePoolSchema.parse({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
        requirements: [],
      },
    },
  },
});

function pod(i: number, p: PodSpec) {
  return podSchema.parse({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p-${i}`, namespace: 'default', uid: `uid-${i}`, labels: { app: 'x' } },
    spec: {
      ...(p.zone === undefined ? {} : { nodeSelector: { [Labels.Zone]: p.zone } }),
      ...(p.spread
        ? {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: Labels.Hostname,
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: 'x' } },
              },
            ],
          }
        : {}),
      containers: [
        {
          name: 'app',
          image: 'app',
          resources: { requests: { cpu: `${p.cpuMilli}m`, memory: `${p.memoryMi}Mi` } },
        },
      ],
    },
  });
}

describe('lowerBoundPerHour against the solver', () => {
  it("never exceeds the price of the solver's new NodeClaims", () => {
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 6 }),
        fc.array(podArb, { minLength: 1, maxLength: 25 }),
        (typeSpecs, podSpecs) => {
          const types = typeSpecs.map((t, i) => instanceType(i, t));
          const pods = podSpecs.map((p, i) => pod(i, p));
          const result = solve({
            pods,
            existing: [],
            daemonSets: [],
            nodePools: [pool],
            instanceTypes: new Map([['default', types]]),
          });
          const placed = result.newClaims.flatMap((c) => c.pods);
          const price = result.newClaims.reduce((sum, c) => sum + c.price, 0);
          expect(lowerBoundPerHour(placed.map(podRequests), types)).toBeLessThanOrEqual(price);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is met exactly when the solver fills one node of the only type', () => {
    const types = [
      instanceType(0, {
        cpu: 4,
        memoryGiPerCpu: 2,
        pods: 110,
        price: 1,
        spotFactor: 1,
        unavailable: [false, true, true, true],
      }),
    ];
    // allocatable: 3900m and 8092Mi; four pods use all the cpu.
    const pods = [0, 1, 2, 3].map((i) =>
      pod(i, { cpuMilli: 975, memoryMi: 1024, zone: undefined, spread: false }),
    );
    const result = solve({
      pods,
      existing: [],
      daemonSets: [],
      nodePools: [pool],
      instanceTypes: new Map([['default', types]]),
    });
    expect(result.newClaims).toHaveLength(1);
    expect(result.newClaims[0]!.price).toBe(1);
    const bound = explainLowerBound(pods.map(podRequests), types);
    expect(bound.perHour).toBeCloseTo(1, 6);
    expect(bound.binding).toEqual(['cpu']);
  });
});
