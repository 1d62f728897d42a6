import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Requirements } from '../requirements/requirements.js';
import { toleratesAll } from '../taints/tolerations.js';
import { DomainRegistry } from './domain-registry.js';
import { GroupScanMemo } from './group-scan.js';
import { type NodeFilter, NoNodeFilter, nodeFilterMatches } from './node-filter.js';
import {
  type CountedPod,
  type NodePoolDomains,
  nodeDomain,
  Topology,
  type TopologyNode,
} from './topology.js';
import { TopologyGroup, type TopologyGroupSpec } from './topology-group.js';

const Zone = 'topology.kubernetes.io/zone';
const Hostname = 'kubernetes.io/hostname';
const NoTaint = [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' as const }];
const Tolerating: NodeFilter = { terms: undefined, tolerations: [] };

interface NodeShape {
  readonly zone: string | undefined;
  readonly registered: boolean;
  readonly tainted: boolean;
  readonly pods: readonly { readonly app: string; readonly namespace: string }[];
}

function build(shapes: readonly NodeShape[], names: readonly string[]) {
  const nodes: TopologyNode[] = shapes.map((s, i) => {
    const labels: Record<string, string> = { [Hostname]: names[i]! };
    if (s.zone !== undefined) labels[Zone] = s.zone;
    return {
      hostname: names[i]!,
      labels,
      requirements: Requirements.fromLabels(labels),
      taints: s.tainted ? NoTaint : [],
      registered: s.registered,
    };
  });
  const pods: CountedPod[][] = shapes.map((s, i) =>
    s.pods.map((p) => ({ namespace: p.namespace, labels: { app: p.app }, node: nodes[i]! })),
  );
  return { nodes, pods };
}

function spec(
  type: TopologyGroupSpec['type'],
  key: string,
  filter: NodeFilter = NoNodeFilter,
): TopologyGroupSpec {
  return {
    type,
    key,
    namespaces: new Set(['default']),
    selector: { matchLabels: { app: 'web' } },
    maxSkew: 1,
    minDomains: undefined,
    filter,
  };
}

/** Everything a solve can read of a group: its registry's ids, counts, registrations, order. */
function state(g: TopologyGroup) {
  const domains = Array.from({ length: g.domains.size }, (_, id) => ({
    name: g.domains.name(id),
    count: g.count(id),
    registered: g.isRegistered(id),
  }));
  return { domains, nonEmpty: g.nonEmptyDomains().map((id) => g.domains.name(id)) };
}

const Forward = [spec('spread', Zone), spec('spread', Zone, Tolerating), spec('spread', Hostname)];
const Inverse = spec('anti-affinity', Zone);

/** The groups a solve might make, in one order, each with its state. */
function groups(topology: Topology) {
  const out = Forward.map((s) => state(topology.group(s).group));
  out.push(state(topology.inverseGroup(Inverse).group));
  return out;
}

/** An in-flight claim's domain: its hostname, or a requirement with a single value. */
function claimDomain(node: TopologyNode, key: string): string | undefined {
  if (key === Hostname) return node.hostname;
  const r = node.requirements.get(key);
  return r === undefined || r.complement || r.values.size !== 1 ? undefined : [...r.values][0];
}

/**
 * The same groups built the plain way, node by node and pod by pod (how Topology built them
 * before scans were kept): the reference the memo and the replay are held to.
 */
function reference(
  pools: NodePoolDomains,
  nodes: readonly TopologyNode[],
  pods: readonly (readonly CountedPod[])[],
) {
  const registries = new Map<string, DomainRegistry>();
  const registry = (key: string) => {
    const found = registries.get(key);
    if (found !== undefined) return found;
    const made = new DomainRegistry(key, registries.size);
    registries.set(key, made);
    return made;
  };
  const hostnames = nodes.map((n) => registry(Hostname).id(n.hostname));
  const make = (s: TopologyGroupSpec, id: number, inverse: boolean) => {
    const g = new TopologyGroup(id, s, registry(s.key), String(id));
    for (const [domain, taintSets] of pools.get(s.key) ?? []) {
      const t = s.filter.tolerations;
      if (t !== undefined && !taintSets.some((taints) => toleratesAll(taints, t))) continue;
      g.register(g.domains.id(domain));
    }
    for (const n of nodes) {
      if (!n.registered) continue;
      const d = nodeDomain(n, s.key);
      if (d === undefined || !nodeFilterMatches(s.filter, n.taints, n.requirements, false)) continue;
      g.register(g.domains.id(d));
    }
    if (g.isHostname) for (const h of hostnames) g.register(h);
    if (inverse) return state(g);
    for (const list of pods) {
      for (const p of list) {
        if (!g.selects(p.namespace, p.labels)) continue;
        const d = p.node.registered ? nodeDomain(p.node, s.key) : claimDomain(p.node, s.key);
        if (d === undefined) continue;
        if (!nodeFilterMatches(s.filter, p.node.taints, p.node.requirements, !p.node.registered)) continue;
        g.record(g.domains.id(d));
      }
    }
    return state(g);
  };
  return [...Forward.map((s, i) => make(s, i, false)), make(Inverse, Forward.length, true)];
}

const poolDomains: NodePoolDomains = new Map([[Zone, new Map([['zone-c', [[]]]])]]);

describe('GroupScanMemo', () => {
  const shape = fc.record({
    zone: fc.option(fc.constantFrom('zone-a', 'zone-b', 'zone-c'), { nil: undefined }),
    registered: fc.boolean(),
    tainted: fc.boolean(),
    pods: fc.array(
      fc.record({ app: fc.constantFrom('web', 'db'), namespace: fc.constantFrom('default', 'other') }),
      { maxLength: 3 },
    ),
  });

  it('gives every group exactly what a scan without it gives, over nodes that change in a few places (property)', () => {
    let patchedRuns = 0;
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 4, maxLength: 24 }),
        fc.array(fc.tuple(fc.nat(), shape, fc.boolean()), { maxLength: 6 }),
        (shapes, changes) => {
          const names = shapes.map((_, i) => `node-${i}`);
          const before = build(shapes, names);
          // The next solve: the same objects but where a change replaces a node and its pods.
          const nodes = before.nodes.slice();
          const pods = before.pods.slice();
          for (const [at, changed, podsOnly] of changes) {
            const i = at % shapes.length;
            const next = build([changed], [names[i]!]);
            // A candidate taken away keeps its node and loses its pods: only the list is new.
            if (podsOnly) pods[i] = next.pods[0]!.map((p) => ({ ...p, node: nodes[i]! }));
            else {
              nodes[i] = next.nodes[0]!;
              pods[i] = next.pods[0]!;
            }
          }
          const memo = new GroupScanMemo();
          const plain = reference(poolDomains, before.nodes, before.pods);
          expect(groups(new Topology(poolDomains, before.nodes, before.pods))).toEqual(plain);
          expect(groups(new Topology(poolDomains, before.nodes, before.pods, memo))).toEqual(plain);
          expect(groups(new Topology(poolDomains, nodes, pods, memo))).toEqual(
            reference(poolDomains, nodes, pods),
          );
          // And back: the memo keeps the first scan, not the last.
          expect(groups(new Topology(poolDomains, before.nodes, before.pods, memo))).toEqual(plain);
          if (changes.length > 0 && changes.length * 4 <= shapes.length) patchedRuns++;
        },
      ),
      { numRuns: 300 },
    );
    expect(patchedRuns).toBeGreaterThan(0);
  });

  it('asks again only for the nodes that are not the same objects', () => {
    const shapes: NodeShape[] = Array.from({ length: 8 }, (_, i) => ({
      zone: i % 2 === 0 ? 'zone-a' : 'zone-b',
      registered: true,
      tainted: false,
      pods: [{ app: 'web', namespace: 'default' }],
    }));
    const { nodes, pods } = build(
      shapes,
      shapes.map((_, i) => `n${i}`),
    );
    const memo = new GroupScanMemo();
    const asked: number[] = [];
    const contribution = (i: number) => {
      asked.push(i);
      return { domain: nodes[i]!.labels[Zone], counted: pods[i]!.map(() => nodes[i]!.labels[Zone]!) };
    };
    memo.scan('g', nodes, pods, contribution);
    expect(asked).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    asked.length = 0;
    const fewer = pods.slice();
    fewer[3] = [];
    const scan = memo.scan('g', nodes, fewer, contribution);
    expect(asked).toEqual([3]);
    expect(scan.registered).toEqual(['zone-a', 'zone-b']);
    // Node 3's pod is still counted: the contribution asked (a stand-in) reads the old lists.
    expect(scan.counted).toEqual([
      ['zone-a', 4],
      ['zone-b', 4],
    ]);
    // More than a quarter different: a full scan, which becomes the kept one.
    asked.length = 0;
    const most = pods.map((p) => p.slice());
    memo.scan('g', nodes, most, contribution);
    expect(asked).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
