import type { PodAffinityTerm } from '../../apis/kubernetes/affinity.js';
import { type LabelSelector, matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { TopologySpreadConstraint } from '../../apis/kubernetes/topology-spread.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { type InstanceType, satisfiesMinValues } from '../../cloudprovider/instance-type.js';
import { cheapestLaunchPrice, isOfferingCompatible } from '../../cloudprovider/offering.js';
import { Requirement } from '../requirements/requirement.js';
import { Requirements } from '../requirements/requirements.js';
import { explainMisfit, fits } from '../resources/fits.js';
import {
  addResources,
  describeResources,
  parseResourceList,
  type ResourceList,
  resourcesEqual,
} from '../resources/resource-list.js';
import type { ExistingCapacity, SolverInput, SolverResult } from '../solver/types.js';
import { VolumeIndex } from '../volumes/volume-topology.js';
import {
  affinityTermsOf,
  blockingTaint,
  daemonFits,
  nodeTermsOf,
  type Port,
  portsClash,
  portsOf,
  requestsOf,
  selectorWithKeys,
  WELL_KNOWN,
} from './pod-facts.js';

const HOSTNAME = 'kubernetes.io/hostname';
const EPHEMERAL = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'karpenter.sh/unregistered',
]);

interface Taint {
  readonly key: string;
  readonly value?: string | undefined;
  readonly effect: string;
}

/** A node or NodeClaim in the final placement. */
interface Place {
  readonly name: string;
  readonly claim: boolean;
  readonly requirements: Requirements;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly hostname: string;
  /** Registered Nodes have labels; claims and in-flight NodeClaims have requirements only. */
  readonly registered: boolean;
  readonly pods: { readonly pod: Pod; readonly fresh: boolean }[];
}

/** What a NodeClaim may lack until its type is chosen: core's well-known labels and the input's. */
function allowOf(input: SolverInput): { allowUndefined: ReadonlySet<string> } {
  return { allowUndefined: new Set([...WELL_KNOWN, ...(input.wellKnownLabels ?? [])]) };
}

const key = (p: Pod) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

function poolRequirements(np: NodePool): Requirements {
  const t = np.spec.template;
  return Requirements.fromNodeSelectorRequirements(t.spec.requirements)
    .addAll(Requirements.fromLabels(t.metadata?.labels))
    .add(Requirement.create('karpenter.sh/nodepool', 'In', [np.metadata.name!]));
}

/** The domains a place may be in for a key: known values, or undefined when not pinned down. */
function domainsOf(place: Place, k: string): readonly string[] | undefined {
  if (k === HOSTNAME) return [place.hostname];
  if (place.registered) {
    const v = place.labels[k];
    return v === undefined ? undefined : [v];
  }
  const r = place.requirements.get(k);
  if (r === undefined || r.complement || r.values.size === 0) return undefined;
  return [...r.values];
}

function single(place: Place, k: string): string | undefined {
  const d = domainsOf(place, k);
  return d !== undefined && d.length === 1 ? d[0] : undefined;
}

function existingTaints(c: ExistingCapacity): Taint[] {
  let taints: Taint[] =
    c.node !== undefined && (c.initialized || c.nodeClaim === undefined)
      ? [...(c.node.spec.taints ?? [])]
      : [...(c.nodeClaim?.spec.taints ?? [])];
  if (!c.initialized) {
    const startup = c.nodeClaim?.spec.startupTaints ?? [];
    taints = taints.filter(
      (t) => !EPHEMERAL.has(t.key) && !startup.some((s) => s.key === t.key && s.effect === t.effect),
    );
  }
  if (c.node?.spec.unschedulable === true)
    taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  return taints;
}

function existingPlace(c: ExistingCapacity): Place {
  let labels: Record<string, string>;
  let requirements: Requirements;
  if (c.node !== undefined) {
    labels = { ...(c.node.metadata.labels ?? {}) };
    requirements = Requirements.fromLabels(labels);
  } else {
    requirements = Requirements.fromNodeSelectorRequirements(c.nodeClaim?.spec.requirements).addAll(
      Requirements.fromLabels(c.nodeClaim?.metadata.labels),
    );
    labels = { ...requirements.labels() };
  }
  const live = c.pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  return {
    name: c.name,
    claim: false,
    requirements,
    labels,
    taints: existingTaints(c),
    hostname: c.node !== undefined ? (labels[HOSTNAME] ?? c.name) : (labels[HOSTNAME] ?? c.name),
    registered: c.node !== undefined,
    pods: live.map((pod) => ({ pod, fresh: false })),
  };
}

function allocatable(c: ExistingCapacity): ResourceList {
  return parseResourceList(
    c.node?.status?.allocatable ?? c.node?.status?.capacity ?? c.nodeClaim?.status?.allocatable,
  );
}

/** Namespaces an affinity term looks at; 'all' for every namespace. */
function termNamespaces(
  pod: Pod,
  term: PodAffinityTerm,
  known: readonly string[],
): ReadonlySet<string> | 'all' {
  const own = pod.metadata.namespace ?? 'default';
  const listed = term.namespaces ?? [];
  const sel = term.namespaceSelector;
  if (sel === undefined) return new Set(listed.length === 0 ? [own] : listed);
  const keys = [...Object.keys(sel.matchLabels ?? {}), ...(sel.matchExpressions ?? []).map((e) => e.key)];
  if (keys.length === 0) return 'all';
  if (keys.every((k) => k === 'kubernetes.io/metadata.name')) {
    return new Set([
      ...listed,
      ...known.filter((ns) => matchesLabelSelector(sel, { 'kubernetes.io/metadata.name': ns })),
    ]);
  }
  return new Set(listed.length === 0 ? [own] : listed);
}

function selects(
  namespaces: ReadonlySet<string> | 'all',
  selector: LabelSelector | undefined,
  pod: Pod,
): boolean {
  if (namespaces !== 'all' && !namespaces.has(pod.metadata.namespace ?? 'default')) return false;
  return matchesLabelSelector(selector, pod.metadata.labels);
}

/**
 * Checks a solver result against its input, independently of the solver: every pod accounted for
 * exactly once; every NodeClaim launchable (each listed type compatible, offered, and with room for
 * its pods plus DaemonSet overhead) and within its NodePool; every placed pod's node selector,
 * affinity, volume topology and taints respected; host ports unique per node; existing capacity not
 * over-allocated; NodePool limits (each claim counted at its largest candidate) and minValues held;
 * topology spread, pod affinity and anti-affinity satisfied by the final placement. Returns the
 * violations, empty when the result is valid.
 */
export function checkSolution(input: SolverInput, result: SolverResult): string[] {
  const out: string[] = [];
  const volumes = new VolumeIndex(
    input.persistentVolumeClaims,
    input.persistentVolumes,
    input.storageClasses,
  );
  const ALLOW = allowOf(input);
  const maxTypes = input.options?.maxInstanceTypes ?? 600;
  const strictMinValues = (input.options?.minValuesPolicy ?? 'Strict') === 'Strict';

  // Every input pod exactly once.
  const seen = new Map<string, number>();
  const inputKeys = new Set(input.pods.map(key));
  const count = (p: Pod) => {
    const k = key(p);
    if (!inputKeys.has(k)) out.push(`pod ${k} is in the result but not in the input`);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  };
  for (const c of result.newClaims) c.pods.forEach(count);
  for (const e of result.existing) e.pods.forEach(count);
  for (const u of result.unschedulable) {
    count(u.pod);
    if (u.reason.trim() === '') out.push(`pod ${key(u.pod)} is unschedulable without a reason`);
  }
  for (const k of inputKeys) {
    const n = seen.get(k) ?? 0;
    if (n !== 1) out.push(`pod ${k} appears ${n} times in the result (want exactly once)`);
  }

  const pools = new Map(input.nodePools.map((np) => [np.metadata.name!, np]));
  const places: Place[] = [];
  const knownNamespaces = [
    ...new Set([
      ...input.pods.map((p) => p.metadata.namespace ?? 'default'),
      ...input.existing.flatMap((e) => e.pods.map((p) => p.metadata.namespace ?? 'default')),
    ]),
  ];

  // Existing capacity.
  const byName = new Map(input.existing.map((e) => [e.name, e]));
  const placedOn = new Map(result.existing.map((e) => [e.name, e.pods]));
  for (const name of placedOn.keys())
    if (!byName.has(name)) out.push(`existing placement on unknown node ${name}`);
  for (const c of input.existing) {
    const place = existingPlace(c);
    const fresh = placedOn.get(c.name) ?? [];
    if (fresh.length > 0 && c.markedForDeletion === true)
      out.push(`node ${c.name} is being deleted but got ${fresh.length} pods`);
    for (const pod of fresh) {
      place.pods.push({ pod, fresh: true });
      const taint = blockingTaint(pod, place.taints);
      if (taint !== undefined)
        out.push(`pod ${key(pod)} on node ${c.name} does not tolerate taint ${taint.key}:${taint.effect}`);
      if (!nodeTermsOf(pod, volumes).some((t) => place.requirements.isCompatible(t))) {
        out.push(
          `pod ${key(pod)} on node ${c.name}: node labels do not satisfy its node selector/affinity/volume topology`,
        );
      }
    }
    if (fresh.length > 0) {
      const used = addResources(...place.pods.map((p) => requestsOf(p.pod)));
      const misfit = explainMisfit(used, allocatable(c));
      if (misfit !== undefined) out.push(`node ${c.name} is over-allocated: ${misfit}`);
    }
    places.push(place);
  }

  // New claims.
  const limitUse = new Map<string, ResourceList>();
  const claimCount = new Map<string, number>();
  for (const [i, claim] of result.newClaims.entries()) {
    const label = `claim ${i} (NodePool ${claim.nodePool})`;
    const np = pools.get(claim.nodePool);
    if (np === undefined) {
      out.push(`${label}: unknown NodePool`);
      continue;
    }
    const reqs = claim.requirements;
    const base = poolRequirements(np);
    if (!base.isCompatible(reqs, ALLOW))
      out.push(`${label}: requirements ${reqs} are not within the NodePool's ${base}`);
    const taints = np.spec.template.spec.taints ?? [];
    const offered = new Map((input.instanceTypes.get(claim.nodePool) ?? []).map((t) => [t.name, t]));
    if (claim.instanceTypes.length === 0) out.push(`${label}: no instance types`);
    if (claim.instanceTypes.length > maxTypes)
      out.push(`${label}: ${claim.instanceTypes.length} instance types (max ${maxTypes})`);
    if (claim.pods.length === 0) out.push(`${label}: no pods`);
    const podRequests = addResources(...claim.pods.map(requestsOf));
    const daemonsFor = (t: InstanceType) => {
      const combined = base.copy().addAll(t.requirements);
      return addResources(
        ...input.daemonSets
          .filter((ds) => daemonFits(ds, taints, combined, true))
          .map((ds) => requestsOf(dsPod(ds))),
      );
    };
    let minPrice = Number.POSITIVE_INFINITY;
    const itReq = reqs.get('node.kubernetes.io/instance-type');
    for (const t of claim.instanceTypes) {
      const known = offered.get(t.name);
      if (known === undefined) {
        out.push(`${label}: instance type ${t.name} is not offered to the NodePool`);
        continue;
      }
      if (itReq !== undefined && !itReq.has(t.name))
        out.push(`${label}: type ${t.name} is excluded by its own requirements`);
      if (!t.requirements.intersects(reqs)) out.push(`${label}: type ${t.name} is incompatible with ${reqs}`);
      if (!t.offerings.some((o) => o.available && isOfferingCompatible(o, reqs))) {
        out.push(`${label}: type ${t.name} has no available offering compatible with ${reqs}`);
      }
      const need = addResources(podRequests, daemonsFor(t));
      if (!fits(need, t.allocatable))
        out.push(
          `${label}: type ${t.name} cannot hold ${describeResources(need)}: ${explainMisfit(need, t.allocatable)}`,
        );
      minPrice = Math.min(minPrice, cheapestLaunchPrice(t.offerings, reqs));
    }
    if (claim.instanceTypes.length > 0 && Math.abs(claim.price - minPrice) > 1e-9) {
      out.push(`${label}: price ${claim.price} is not the cheapest compatible offering (${minPrice})`);
    }
    const first = claim.instanceTypes[0];
    if (
      first !== undefined &&
      !resourcesEqual(claim.requests, addResources(podRequests, daemonsFor(first)))
    ) {
      out.push(
        `${label}: requests ${describeResources(claim.requests)} are not its pods' plus DaemonSet overhead`,
      );
    }
    if (strictMinValues && reqs.hasMinValues() && !satisfiesMinValues(claim.instanceTypes, reqs).satisfied) {
      out.push(`${label}: instance types do not meet minValues of ${reqs}`);
    }
    const place: Place = {
      name: `claim ${i}`,
      claim: true,
      requirements: reqs,
      labels: {},
      taints,
      hostname: `\u0000claim-${i}`,
      registered: false,
      pods: claim.pods.map((pod) => ({ pod, fresh: true })),
    };
    for (const pod of claim.pods) {
      const taint = blockingTaint(pod, taints);
      if (taint !== undefined)
        out.push(`pod ${key(pod)} on ${label} does not tolerate taint ${taint.key}:${taint.effect}`);
      const terms = nodeTermsOf(pod, volumes);
      const ok = terms.some(
        (t) =>
          reqs.isCompatible(t, ALLOW) && claim.instanceTypes.every((it) => it.requirements.intersects(t)),
      );
      if (!ok)
        out.push(
          `pod ${key(pod)} on ${label}: claim requirements ${reqs} do not satisfy its node constraints`,
        );
    }
    places.push(place);
    // Limits: each claim at the largest capacity among its types.
    let max: ResourceList = new Map();
    for (const t of claim.instanceTypes) {
      const m = new Map(max);
      for (const [n, q] of t.capacity) if ((m.get(n)?.cmp(q) ?? -1) < 0) m.set(n, q);
      max = m;
    }
    limitUse.set(claim.nodePool, addResources(limitUse.get(claim.nodePool) ?? new Map(), max));
    claimCount.set(claim.nodePool, (claimCount.get(claim.nodePool) ?? 0) + 1);
  }
  for (const [name, np] of pools) {
    const limits = parseResourceList(np.spec.limits);
    if (limits.size === 0) continue;
    const usage = input.nodePoolUsage?.get(name) ?? new Map();
    const added = limitUse.get(name) ?? new Map();
    for (const [res, limit] of limits) {
      if (res === 'nodes') {
        const n = (claimCount.get(name) ?? 0) + Number((usage.get('nodes')?.nanos ?? 0n) / 1_000_000_000n);
        if (BigInt(n) * 1_000_000_000n > limit.nanos)
          out.push(`NodePool ${name}: ${n} nodes exceed the limit ${limit}`);
        continue;
      }
      const newUse = added.get(res);
      if (newUse === undefined || newUse.isZero()) continue;
      const total = usage.get(res)?.add(newUse) ?? newUse;
      if (total.cmp(limit) > 0)
        out.push(
          `NodePool ${name}: ${res} ${total} (usage plus new claims' largest types) exceeds the limit ${limit}`,
        );
    }
  }

  // Host ports.
  for (const place of places) {
    const used: { port: Port; owner: string }[] = [];
    if (place.claim) {
      const claim = result.newClaims[Number(place.name.slice(6))]!;
      const np = pools.get(claim.nodePool)!;
      const base = poolRequirements(np);
      for (const ds of input.daemonSets) {
        if (daemonFits(ds, np.spec.template.spec.taints ?? [], base, true)) {
          for (const port of portsOf(ds.spec.template.spec))
            used.push({ port, owner: `DaemonSet ${ds.metadata.name}` });
        }
      }
    }
    for (const { pod } of place.pods) {
      for (const port of portsOf(pod.spec)) {
        const clash = used.find((u) => portsClash(u.port, port));
        if (clash !== undefined)
          out.push(
            `${place.name}: host port ${port.port}/${port.protocol} of pod ${key(pod)} clashes with ${clash.owner}`,
          );
        used.push({ port, owner: `pod ${key(pod)}` });
      }
    }
  }

  checkTopology(input, places, knownNamespaces, out);
  return out;
}

function dsPod(ds: SolverInput['daemonSets'][number]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: ds.metadata.name, namespace: ds.metadata.namespace },
    spec: ds.spec.template.spec,
  } as Pod;
}

interface Located {
  readonly pod: Pod;
  readonly fresh: boolean;
  readonly place: Place;
}

/** Domains a NodePool-launched node may be in, per key, with the NodePools' taints. */
function poolDomains(input: SolverInput, k: string): Map<string, Taint[][]> {
  const out = new Map<string, Taint[][]>();
  for (const np of input.nodePools) {
    const base = poolRequirements(np);
    const taints = np.spec.template.spec.taints ?? [];
    for (const t of input.instanceTypes.get(np.metadata.name!) ?? []) {
      const a = base.get(k);
      const b = t.requirements.get(k);
      let values: string[] = [];
      if (a !== undefined || b !== undefined) {
        const r = a !== undefined && b !== undefined ? a.intersection(b) : (a ?? b)!;
        if (!r.complement) values = [...r.values];
      } else if (k === 'topology.kubernetes.io/zone') values = t.offerings.map((o) => o.zone);
      else if (k === 'karpenter.sh/capacity-type') values = t.offerings.map((o) => o.capacityType);
      for (const v of values) {
        const sets = out.get(v) ?? [];
        sets.push(taints);
        out.set(v, sets);
      }
    }
  }
  return out;
}

function tolerable(pod: Pod, taints: readonly Taint[]): boolean {
  return taints.every((taint) =>
    (pod.spec.tolerations ?? []).some(
      (t) =>
        ((t.effect ?? '') === '' || t.effect === taint.effect) &&
        ((t.key ?? '') === '' || t.key === taint.key) &&
        (t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '')),
    ),
  );
}

function checkTopology(
  input: SolverInput,
  places: readonly Place[],
  known: readonly string[],
  out: string[],
): void {
  const all: Located[] = places.flatMap((place) =>
    place.pods
      .filter(({ pod }) => pod.metadata.deletionTimestamp === undefined)
      .map(({ pod, fresh }) => ({ pod, fresh, place })),
  );
  const allow = allowOf(input);
  const domainCache = new Map<string, Map<string, Taint[][]>>();
  const domainsFor = (k: string) => {
    let d = domainCache.get(k);
    if (d === undefined) {
      d = poolDomains(input, k);
      domainCache.set(k, d);
    }
    return d;
  };

  // Topology spread (DoNotSchedule), per distinct constraint.
  const spreadDone = new Set<string>();
  for (const owner of all) {
    if (!owner.fresh) continue;
    for (const c of owner.pod.spec.topologySpreadConstraints ?? []) {
      if (c.whenUnsatisfiable !== 'DoNotSchedule') continue;
      const id = JSON.stringify([
        owner.pod.metadata.namespace,
        owner.pod.metadata.labels,
        owner.pod.spec.nodeSelector,
        owner.pod.spec.affinity?.nodeAffinity,
        owner.pod.spec.tolerations,
        c,
      ]);
      if (spreadDone.has(id)) continue;
      spreadDone.add(id);
      checkSpread(owner.pod, c, all, domainsFor(c.topologyKey), allow, out);
    }
  }

  // Pods selected by a term, and where they are, computed once per distinct term.
  const matchCache = new Map<string, { pods: Located[]; byDomain: Map<string, Located[]> }>();
  const matchesOf = (p: Pod, term: PodAffinityTerm) => {
    const ns = termNamespaces(p, term, known);
    const sel = selectorWithKeys(
      term.labelSelector,
      p.metadata.labels,
      term.matchLabelKeys,
      term.mismatchLabelKeys,
    );
    const id = JSON.stringify([ns === 'all' ? '*' : [...ns].sort(), sel ?? null, term.topologyKey]);
    let m = matchCache.get(id);
    if (m === undefined) {
      const pods = all.filter((q) => selects(ns, sel, q.pod));
      const byDomain = new Map<string, Located[]>();
      for (const q of pods) {
        for (const d of domainsOf(q.place, term.topologyKey) ?? []) {
          const list = byDomain.get(d) ?? [];
          list.push(q);
          byDomain.set(d, list);
        }
      }
      m = { pods, byDomain };
      matchCache.set(id, m);
    }
    return { ...m, selfMatch: selects(ns, sel, p) };
  };

  // Required pod affinity of placed pods.
  for (const p of all) {
    if (!p.fresh) continue;
    for (const term of p.pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
      []) {
      const k = term.topologyKey;
      const mine = domainsOf(p.place, k);
      if (mine === undefined) {
        out.push(`pod ${key(p.pod)}: pod affinity on ${k} but its node's ${k} is not pinned down`);
        continue;
      }
      // Whichever of its possible domains the node ends up in must hold a matching pod, unless
      // the pod started the group: nothing else matches, or only pods it shares one domain with.
      const m = matchesOf(p.pod, term);
      const others = m.pods.filter((q) => q.pod !== p.pod);
      const satisfied = mine.every((d) => others.some((q) => single(q.place, k) === d));
      if (satisfied) continue;
      const bootstrap =
        m.selfMatch &&
        mine.length === 1 &&
        others.every((q) => q.fresh && (single(q.place, k) === undefined || single(q.place, k) === mine[0]));
      if (!bootstrap) out.push(`pod ${key(p.pod)}: pod affinity on ${k} not satisfied in ${mine.join(', ')}`);
    }
  }

  // Required anti-affinity of any pod, where at least one side was placed by this solve.
  for (const p of all) {
    for (const term of p.pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
      []) {
      const k = term.topologyKey;
      const mine = domainsOf(p.place, k);
      if (mine === undefined) continue;
      const m = matchesOf(p.pod, term);
      for (const d of mine) {
        for (const q of m.byDomain.get(d) ?? []) {
          if (q.pod === p.pod || (!p.fresh && !q.fresh)) continue;
          out.push(
            `pods ${key(p.pod)} and ${key(q.pod)} share ${k}=${d.startsWith('\u0000') ? q.place.name : d} against ${key(p.pod)}'s pod anti-affinity`,
          );
        }
      }
    }
  }
}

function checkSpread(
  owner: Pod,
  c: TopologySpreadConstraint,
  all: readonly Located[],
  poolDomainMap: Map<string, Taint[][]>,
  allow: { allowUndefined: ReadonlySet<string> },
  out: string[],
): void {
  const k = c.topologyKey;
  const ns = owner.metadata.namespace ?? 'default';
  const sel = selectorWithKeys(c.labelSelector, owner.metadata.labels, c.matchLabelKeys, undefined);
  const honorAffinity = (c.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honorTaints = (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor';
  // Which nodes count follows the pod's node affinity only; its volumes limit where it goes.
  const terms = affinityTermsOf(owner);
  const counts = (place: Place) =>
    (!honorAffinity ||
      terms.some((t) => place.requirements.isCompatible(t, place.claim ? allow : undefined))) &&
    (!honorTaints || tolerable(owner, place.taints));
  const sameConstraint = (p: Pod) =>
    (p.metadata.namespace ?? 'default') === ns &&
    JSON.stringify(p.metadata.labels) === JSON.stringify(owner.metadata.labels) &&
    (p.spec.topologySpreadConstraints ?? []).some((x) => JSON.stringify(x) === JSON.stringify(c));
  const matched = (p: Pod) =>
    (p.metadata.namespace ?? 'default') === ns && matchesLabelSelector(sel, p.metadata.labels);
  const final = new Map<string, number>();
  const before = new Map<string, number>();
  const owners = new Map<string, number>();
  for (const l of all) {
    const d = single(l.place, k);
    if (l.fresh && sameConstraint(l.pod) && d === undefined) {
      out.push(`pod ${key(l.pod)}: topology spread on ${k} but its node's ${k} is not pinned down`);
    }
    if (d === undefined || !counts(l.place)) continue;
    if (matched(l.pod)) {
      final.set(d, (final.get(d) ?? 0) + 1);
      if (!l.fresh) before.set(d, (before.get(d) ?? 0) + 1);
      else if (sameConstraint(l.pod)) owners.set(d, (owners.get(d) ?? 0) + 1);
    } else if (l.fresh && sameConstraint(l.pod)) {
      owners.set(d, owners.get(d) ?? 0);
    }
  }
  let min = 0;
  if (k !== HOSTNAME) {
    // Domains that count: those the NodePools and nodes can provide that the pod could use, for every term.
    const universe = new Set<string>();
    for (const [d, taintSets] of poolDomainMap) {
      if (honorTaints && !taintSets.some((t) => tolerable(owner, t))) continue;
      universe.add(d);
    }
    for (const l of all) {
      if (!l.place.registered) continue;
      const d = single(l.place, k);
      if (d !== undefined && counts(l.place)) universe.add(d);
    }
    const allowed = [...universe].filter(
      (d) => !honorAffinity || terms.every((t) => t.get(k)?.has(d) ?? true),
    );
    min = allowed.length === 0 ? 0 : Math.min(...allowed.map((d) => final.get(d) ?? 0));
    if (c.minDomains !== undefined && allowed.length < c.minDomains) min = 0;
  }
  for (const [d, n] of owners) {
    const held = (before.get(d) ?? 0) + n;
    if (held > c.maxSkew + min) {
      out.push(
        `topology spread maxSkew ${c.maxSkew} on ${k} violated for ${key(owner)}'s group: ${d.startsWith('\u0000') ? 'a new claim' : d} holds ${held}, minimum is ${min}`,
      );
    }
  }
}
