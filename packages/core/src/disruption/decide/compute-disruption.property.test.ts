import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { isOfferingCompatible, worstLaunchPrice } from '../../cloudprovider/offering.js';
import { podKey } from '../../scheduling/pod/identity.js';
import type { NewClaim } from '../../scheduling/solver/types.js';
import { boundPod, cluster, managedNode, T0, type TestNode } from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { computeDisruption } from './compute-disruption.js';

// Sizes of the standard test types, in millicores and MiB, kept apart from the library's
// quantity arithmetic so the fit check below is independent of the code under test.
const Types = {
  small: { cpu: 2000, mem: 4096, price: 0.1 },
  medium: { cpu: 4000, mem: 16384, price: 0.2 },
  large: { cpu: 16000, mem: 65536, price: 0.8 },
} as const;
type TypeName = keyof typeof Types;

interface PodSpec {
  readonly cpu: number;
  readonly mem: number;
}
interface NodeSpec {
  readonly pool: number;
  readonly type: TypeName;
  readonly spot: boolean;
  readonly zone: string;
  readonly ready: boolean;
  readonly pods: readonly PodSpec[];
}
interface BudgetSpec {
  readonly nodes: string;
  readonly reasons?: ('Empty' | 'Drifted' | 'Underutilized')[];
}

const podSpec = fc.record({
  cpu: fc.constantFrom(250, 500, 1000, 1500),
  mem: fc.constantFrom(256, 1024, 2048),
});
const nodeSpec = fc.record({
  pool: fc.integer({ min: 0, max: 1 }),
  type: fc.constantFrom<TypeName>('small', 'medium', 'large'),
  spot: fc.boolean(),
  zone: fc.constantFrom('zone-a', 'zone-b'),
  ready: fc.integer({ min: 0, max: 4 }).map((x) => x !== 0),
  pods: fc.array(podSpec, { maxLength: 5 }),
});
const budgetSpec: fc.Arbitrary<BudgetSpec> = fc.record(
  {
    nodes: fc.constantFrom('0', '1', '2', '10%', '50%', '100%'),
    reasons: fc.subarray(['Empty', 'Drifted', 'Underutilized'] as ('Empty' | 'Drifted' | 'Underutilized')[]),
  },
  { requiredKeys: ['nodes'] },
);
const scenario = fc.record({
  nodes: fc.array(nodeSpec, { minLength: 1, maxLength: 6 }),
  budgets: fc.tuple(fc.array(budgetSpec, { maxLength: 2 }), fc.array(budgetSpec, { maxLength: 2 })),
  /** Per NodePool: whether it now allows zone-a only, so its zone-b nodes have drifted. */
  zoneA: fc.tuple(fc.boolean(), fc.boolean()),
});

/** The zones a claim may launch in, as its requirements allow. */
function claimZones(claim: NewClaim): string[] {
  return claim.instanceTypes.flatMap((t) =>
    t.offerings.filter((o) => isOfferingCompatible(o, claim.requirements)).map((o) => o.zone),
  );
}

/** Drops pods that would overflow their node, so the starting cluster is feasible. */
function feasible(n: NodeSpec): PodSpec[] {
  const size = Types[n.type];
  const kept: PodSpec[] = [];
  let cpu = 0;
  let mem = 0;
  for (const p of n.pods) {
    if (cpu + p.cpu > size.cpu || mem + p.mem > size.mem) continue;
    kept.push(p);
    cpu += p.cpu;
    mem += p.mem;
  }
  return kept;
}

/** The budget an independent reading of the rules allows (no schedules are generated). */
function expectedAllowed(
  budgets: readonly BudgetSpec[],
  nodes: number,
  notReady: number,
  reason: string,
): number {
  let limit = Number.POSITIVE_INFINITY;
  for (const b of budgets) {
    if (b.reasons !== undefined && !b.reasons.includes(reason as 'Empty')) continue;
    const value = b.nodes.endsWith('%')
      ? Math.ceil((Number(b.nodes.slice(0, -1)) * nodes) / 100)
      : Number(b.nodes);
    limit = Math.min(limit, value);
  }
  return Math.max(0, limit - notReady);
}

describe('computeDisruption (property)', () => {
  it('moves only pods that fit, saves money when consolidating, replaces only drifted nodes, and keeps within budgets', () => {
    fc.assert(
      fc.property(scenario, ({ nodes: specs, budgets, zoneA }) => {
        const pods = new Map<string, PodSpec>();
        const testNodes: TestNode[] = specs.map((s, i) => {
          const name = `node-${i}`;
          const node = managedNode(name, {
            pool: `pool-${s.pool}`,
            type: s.type,
            capacityType: s.spot ? 'spot' : 'on-demand',
            zone: s.zone,
            ready: s.ready,
          });
          const bound = feasible(s).map((p, j) => {
            const pod = boundPod(`${name}-p${j}`, name, { cpu: `${p.cpu}m`, memory: `${p.mem}Mi` });
            pods.set(podKey(pod), p);
            return pod;
          });
          return { node, pods: bound };
        });
        const pools = [0, 1].map((i) =>
          aNodePool({
            metadata: { name: `pool-${i}` },
            spec: {
              ...(zoneA[i]
                ? {
                    template: {
                      spec: {
                        requirements: [
                          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
                        ],
                      },
                    },
                  }
                : {}),
              disruption: {
                budgets: budgets[i]!.map((b) => ({
                  nodes: b.nodes,
                  ...(b.reasons ? { reasons: b.reasons } : {}),
                })),
              },
            },
          }),
        );
        const snapshot = cluster({ nodes: testNodes, pools });
        const result = computeDisruption(snapshot, T0);

        expect(result.nodes.map((n) => n.node)).toEqual(testNodes.map((n) => n.node.metadata.name).sort());
        for (const n of result.nodes) expect(n.disruptable === (n.blockedBy === undefined)).toBe(true);
        expect(result.commands.length).toBeLessThanOrEqual(1);

        for (const command of result.commands) {
          const leaving = new Set(command.candidates);
          const statusOf = new Map(result.nodes.map((n) => [n.node, n]));
          for (const name of leaving) expect(statusOf.get(name)?.disruptable).toBe(true);

          // Budgets: never more candidates of a NodePool than the rules allow.
          for (const [i, b] of budgets.entries()) {
            const inPool = specs.filter((s) => s.pool === i);
            const allowed = expectedAllowed(
              b,
              inPool.length,
              inPool.filter((s) => !s.ready).length,
              command.reason,
            );
            const taken = command.candidates.filter((c) => specs[Number(c.slice(5))]!.pool === i).length;
            expect(taken).toBeLessThanOrEqual(allowed);
          }

          // Every pod of the candidates moves exactly once, never onto a leaving node.
          const moving = testNodes
            .filter((n) => leaving.has(n.node.metadata.name))
            .flatMap((n) => n.pods ?? []);
          expect(command.moves.map((m) => podKey(m.pod)).sort()).toEqual(moving.map(podKey).sort());
          const load = new Map<string, { cpu: number; mem: number; count: number }>();
          const add = (target: string, pod: Pod) => {
            const p = pods.get(podKey(pod))!;
            const l = load.get(target) ?? { cpu: 0, mem: 0, count: 0 };
            load.set(target, { cpu: l.cpu + p.cpu, mem: l.mem + p.mem, count: l.count + 1 });
          };
          for (const n of testNodes)
            for (const pod of n.pods ?? [])
              if (!leaving.has(n.node.metadata.name)) add(n.node.metadata.name, pod);
          for (const m of command.moves) {
            if ('node' in m.to) {
              expect(leaving.has(m.to.node)).toBe(false);
              add(m.to.node, m.pod);
            } else {
              add(`replacement-${m.to.replacement}`, m.pod);
            }
          }
          for (const [target, l] of load) {
            if (target.startsWith('replacement-')) {
              const claim = command.replacements[Number(target.slice('replacement-'.length))]!;
              for (const t of claim.instanceTypes) {
                const size = Types[t.name as TypeName];
                expect(l.cpu).toBeLessThanOrEqual(size.cpu);
                expect(l.mem).toBeLessThanOrEqual(size.mem);
              }
            } else {
              const size = Types[specs[Number(target.slice(5))]!.type];
              expect(l.cpu).toBeLessThanOrEqual(size.cpu);
              expect(l.mem).toBeLessThanOrEqual(size.mem);
            }
          }

          if (command.reason === 'Drifted') {
            for (const c of command.candidates) {
              const s = specs[Number(c.slice(5))]!;
              expect(zoneA[s.pool] && s.zone === 'zone-b').toBe(true);
            }
            // A replacement launches where its own NodePool now allows.
            for (const r of command.replacements)
              if (zoneA[Number(r.nodePool.slice(5))]) expect(claimZones(r)).not.toContain('zone-b');
          }

          // Consolidation pays: at most one replacement, each of its types cheaper in the worst case.
          if (command.reason === 'Underutilized') {
            const price = command.candidates.reduce((sum, c) => {
              const s = specs[Number(c.slice(5))]!;
              return sum + (s.spot ? Math.round(Types[s.type].price * 0.7 * 1e6) / 1e6 : Types[s.type].price);
            }, 0);
            expect(command.savingsPerHour).toBeGreaterThan(0);
            expect(command.replacements.length).toBeLessThanOrEqual(1);
            for (const r of command.replacements) {
              expect(r.price).toBeLessThan(price);
              for (const t of r.instanceTypes)
                expect(worstLaunchPrice(t.offerings, r.requirements)).toBeLessThan(price);
            }
            expect(command.savingsPerHour).toBeCloseTo(
              price - command.replacements.reduce((s, r) => s + r.price, 0),
              9,
            );
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
