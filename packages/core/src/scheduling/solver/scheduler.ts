import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Due, Steps } from '../../clock/slices.js';
import { satisfiesMinValues } from '../../cloudprovider/instance-type.js';
import { hostPortConflict, podHostPorts } from '../pod/host-ports.js';
import { podKey } from '../pod/identity.js';
import { podRequests } from '../pod/requests.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import { ResourceSlots, ResourceVector } from '../resources/resource-vector.js';
import { untoleratedTaint } from '../taints/tolerations.js';
import { NamespaceResolver } from '../topology/group-specs.js';
import { nodeFilterMatches } from '../topology/node-filter.js';
import { Topology } from '../topology/topology.js';
import {
  FreshDomain,
  MASK_DOMAINS,
  type TopologyGroup,
  type TopologyGroupSpec,
} from '../topology/topology-group.js';
import { VolumeIndex, volumeTopology } from '../volumes/volume-topology.js';
import { ClaimOrder } from './claim-order.js';
import { type DaemonPod, daemonPod } from './daemon-overhead.js';
import type { PreparedExisting } from './existing.js';
import {
  inverseGroupSpecs,
  nodeFilterTerms,
  ownedGroupSpecs,
  type PodClass,
  type RequirementOption,
  requirementOptions,
  Variant,
} from './pod-class.js';
import type { PodFactsMemo } from './pod-facts-memo.js';
import { buildPool, hasLaunchableOffering, orderNodePools, type Pool, typeCompatible } from './pools.js';
import { initialView, type PodView, relax } from './preferences.js';
import type { PodQueue } from './queue.js';
import { SolverCache } from './solver-cache.js';
import {
  type Claim,
  type ExistingTarget,
  emptyDomainIds,
  NoDomainIds,
  type Target,
  UNKNOWN_DOMAIN,
} from './target.js';
import type { SolverInput, SolverOptions } from './types.js';
import { WellKnown } from './well-known.js';

/** Options with Karpenter's defaults filled in. */
export interface ResolvedOptions {
  readonly maxInstanceTypes: number;
  readonly minValuesPolicy: 'Strict' | 'BestEffort';
  readonly ignorePreferences: boolean;
  readonly toleratePreferNoSchedule: boolean;
  readonly repack: boolean;
}

export function resolveOptions(o: SolverOptions | undefined): ResolvedOptions {
  return {
    maxInstanceTypes: o?.maxInstanceTypes ?? 600,
    minValuesPolicy: o?.minValuesPolicy ?? 'Strict',
    ignorePreferences: o?.ignorePreferences ?? false,
    toleratePreferNoSchedule: o?.toleratePreferNoSchedule ?? true,
    repack: o?.repack ?? true,
  };
}

/** A pending pod and where it stands. */
export interface PodEntry {
  readonly pod: Pod;
  readonly index: number;
  /** Undefined when the pod cannot be scheduled at all (see `error`). */
  readonly cls: PodClass | undefined;
  readonly error: string | undefined;
  readonly requests: ResourceList;
  readonly created: number;
  variant: Variant | undefined;
  placed: boolean;
}

/** Why a new NodeClaim from a NodePool would not take a pod (the first check that failed). */
export type FreshFailure =
  | { readonly stage: 'no-types' }
  | { readonly stage: 'taint' }
  | { readonly stage: 'port' }
  | { readonly stage: 'requirements' }
  | { readonly stage: 'types'; readonly option: number }
  | { readonly stage: 'limits'; readonly option: number }
  | { readonly stage: 'topology'; readonly group: TopologyGroup; readonly requirements: Requirements }
  | {
      readonly stage: 'topology-types';
      readonly option: number;
      readonly requirements: Requirements;
    }
  | { readonly stage: 'min-values'; readonly requirements: Requirements; readonly candidates: Int32Array };

/** The start of a new claim for a variant on a NodePool, before limits and topology. */
interface FreshBase {
  readonly option: number;
  readonly requirements: Requirements;
  /** Types compatible with the requirements, with a launchable offering, fitting the pod alone. */
  readonly candidates: Int32Array;
  /** The candidates narrowed by topology, per narrowing. */
  readonly narrowed: Map<string, Int32Array>;
}

/** Every requirement option a new claim could start from, in option order, or why none. */
type FreshCache = readonly FreshBase[] | FreshFailure;

const MAX_OPTIONS = 16;

function sameRequirements(before: Requirements, after: Requirements, added: Requirements): boolean {
  for (const r of added) {
    const a = before.get(r.key);
    const b = after.get(r.key);
    if (a === undefined || b === undefined) return false;
    if (a !== b && !a.equals(b)) return false;
  }
  return true;
}

/** The pod's own domains for a group: a spread's minimum is counted without the volume's zones. */
function podDomainsFor(g: TopologyGroup, option: RequirementOption): Requirement | undefined {
  return (g.spec.type === 'spread' ? option.own : option.strict).get(g.spec.key);
}

/** What `Scheduler.prepare` builds first, one piece of existing capacity at a time. */
interface SchedulerBase {
  readonly options: ResolvedOptions;
  readonly wellKnown: WellKnown;
  readonly slots: ResourceSlots;
  readonly daemons: readonly DaemonPod[];
  readonly cache: SolverCache;
  readonly pools: readonly Pool[];
  readonly prepared: readonly PreparedExisting[];
}

/**
 * One solve's state. Built from the input, run once by {@link solve}; the result reads it back.
 * Nothing here is shared between solves.
 */
export class Scheduler {
  readonly options: ResolvedOptions;
  /** Core's well-known labels and the input's. */
  readonly wellKnown: WellKnown;
  readonly slots: ResourceSlots;
  readonly pools: readonly Pool[];
  readonly daemons: readonly DaemonPod[];
  readonly prepared: readonly PreparedExisting[];
  readonly existing: readonly ExistingTarget[];
  readonly topology: Topology;
  readonly classes: PodClass[] = [];
  readonly entries: PodEntry[] = [];
  /** Entries (by index) left in the queue when the solve's deadline ran out. */
  readonly timedOut = new Set<number>();
  /** NodeClaims of this solve, in creation order (the re-packing pass may replace some). */
  claims: Claim[] = [];
  readonly order = new ClaimOrder();
  /** Placements so far, replayed into groups that relaxation creates later. */
  readonly #log: { cls: PodClass; target: Target }[] = [];
  readonly #namespaces: NamespaceResolver;
  readonly #owners = new Map<number, string[]>();
  /** The unrelaxed variant of each class, by class id. */
  readonly #bases: Variant[] = [];
  readonly #podFacts: PodFactsMemo;
  #variants = 0;
  #ready = false;
  readonly #domains: number[] = [];
  #failGroup: TopologyGroup | undefined;
  #failPermanent = false;
  #sig = '';
  /** The option index the last successful #merged picked. */
  #mergedOption = 0;
  /**
   * Domains (by group id) the current attempt found unlaunchable and skips, and the single
   * domains the last #applyTopology chose for spreads and bootstrapping affinities, in order.
   */
  readonly #excluded = new Map<number, string[]>();
  readonly #picks: { group: TopologyGroup; domain: string }[] = [];
  readonly #fastGroups: TopologyGroup[] = [];
  readonly #fastMasks: number[] = [];

  /**
   * Builds a solve's state from its input as stoppable work (see `Steps`): it may stop between
   * two pieces of existing capacity while preparing them, between two pods while classifying
   * them and between two classes while linking their topology groups, the parts that grow with
   * the cluster and the pending pods.
   */
  static *prepare(input: SolverInput, due?: Due): Steps<Scheduler> {
    const s = new Scheduler(input, yield* Scheduler.#base(input, due));
    yield* s.#classify(input, due);
    yield* s.#link(due);
    return s;
  }

  /** The NodePools and the existing capacity, prepared; the rest of the state is built on them. */
  static *#base(input: SolverInput, due: Due | undefined): Steps<SchedulerBase> {
    const options = resolveOptions(input.options);
    const wellKnown = new WellKnown(input.wellKnownLabels);
    const slots = new ResourceSlots();
    const daemons: DaemonPod[] = [];
    for (const ds of input.daemonSets) {
      try {
        daemons.push(daemonPod(ds));
      } catch {
        // A DaemonSet whose template does not parse runs nowhere; Karpenter skips it too.
      }
    }
    const cache = input.cache ?? new SolverCache();
    const prepareTypes = cache.poolTypes(input.daemonSets);
    // Pools before capacity: resource slots are numbered in the order they are first seen.
    const pools = orderNodePools(input.nodePools).map((np, i) => {
      const types = cache.normalizedTypes(
        input.instanceTypes.get(np.metadata.name!),
        input.wellKnownLabels,
        wellKnown,
      );
      return buildPool(
        i,
        np,
        types,
        daemons,
        slots,
        input.nodePoolUsage?.get(np.metadata.name!),
        cache.launchableTypes(np, types),
        prepareTypes,
      );
    });
    const prepared = yield* cache.preparedExisting(input.existing, input.daemonSets, daemons, slots, due);
    return { options, wellKnown, slots, daemons, cache, pools, prepared };
  }

  private constructor(input: SolverInput, base: SchedulerBase) {
    this.options = base.options;
    this.wellKnown = base.wellKnown;
    this.slots = base.slots;
    this.daemons = base.daemons;
    this.pools = base.pools;
    this.prepared = base.prepared;
    const cache = base.cache;
    this.#podFacts = cache.podFacts;
    const namespaces = new Set<string>();
    for (const p of input.pods) namespaces.add(p.metadata.namespace ?? 'default');
    for (const p of this.prepared) for (const namespace of p.namespaces) namespaces.add(namespace);
    this.#namespaces = new NamespaceResolver(namespaces);
    this.topology = new Topology(
      cache.nodePoolDomains(this.pools),
      this.prepared.map((p) => p.topologyNode),
      this.prepared.map((p) => p.counted),
      cache.groupScans,
    );
    const existing: ExistingTarget[] = [];
    for (const [i, p] of this.prepared.entries()) {
      if (p.capacity.markedForDeletion === true) continue;
      existing.push({
        kind: 'existing',
        index: existing.length,
        name: p.name,
        requirements: p.requirements,
        taints: p.taints,
        // The topology registered every node's hostname in this order already.
        host: this.topology.hostnameOf(i),
        allowUndefined: false,
        ports: p.ports.slice(),
        pods: [],
        podRequests: [],
        mergeCache: undefined,
        domainIds: NoDomainIds,
        available: p.available.clone(),
      });
    }
    this.existing = existing;
    this.#inverseFromBound();
  }

  /**
   * The classes' topology groups, once every pod is classified (classes x groups: both grow
   * with the pods, so it may stop between classes); the state is ready to run then.
   */
  *#link(due: Due | undefined): Steps<void> {
    for (const cls of this.classes) {
      if (due?.() === true) yield;
      for (const g of this.topology.groups) {
        if (!g.selects(cls.namespace, cls.labels)) continue;
        if (this.#isInverse(g)) cls.repelledBy.push(g);
        else cls.countedBy.push(g);
      }
    }
    this.#ready = true;
  }

  readonly #inverse = new Set<TopologyGroup>();

  #isInverse(g: TopologyGroup): boolean {
    return this.#inverse.has(g);
  }

  /** Pod names owning an inverse group (for reasons). */
  ownersOf(g: TopologyGroup): readonly string[] {
    return this.#owners.get(g.id) ?? [];
  }

  isInverse(g: TopologyGroup): boolean {
    return this.#inverse.has(g);
  }

  #inverseFromBound(): void {
    for (const p of this.prepared) {
      for (const pod of p.antiAffine) {
        const terms =
          pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
        const owner = { namespace: pod.metadata.namespace ?? 'default', labels: pod.metadata.labels };
        const specs = inverseGroupSpecs(
          owner,
          { antiAffinityRequired: terms, tolerations: [] },
          this.#namespaces,
        );
        for (const spec of specs) {
          const g = this.#internInverse(spec, podKey(pod));
          const node = p.topologyNode;
          const domain =
            spec.key === 'kubernetes.io/hostname' ? node.hostname : (node.labels[spec.key] ?? undefined);
          if (domain !== undefined) g.record(g.domains.id(domain));
        }
      }
    }
  }

  #internInverse(spec: TopologyGroupSpec, owner: string): TopologyGroup {
    const { group, created } = this.topology.inverseGroup(spec);
    this.#inverse.add(group);
    const owners = this.#owners.get(group.id) ?? [];
    if (owners.length < 3 && !owners.includes(owner)) owners.push(owner);
    this.#owners.set(group.id, owners);
    if (created && this.#ready) {
      for (const cls of this.classes)
        if (group.selects(cls.namespace, cls.labels)) cls.repelledBy.push(group);
    }
    return group;
  }

  #internForward(spec: TopologyGroupSpec): TopologyGroup {
    const { group, created } = this.topology.group(spec);
    if (created && this.#ready) {
      for (const cls of this.classes) if (group.selects(cls.namespace, cls.labels)) cls.countedBy.push(group);
      // Counts must include what this solve already placed, not just the bound pods.
      for (const { cls, target } of this.#log) {
        if (group.selects(cls.namespace, cls.labels)) this.#recordInto(group, target);
      }
    }
    return group;
  }

  *#classify(input: SolverInput, due: Due | undefined): Steps<void> {
    const volumes = new VolumeIndex(
      input.persistentVolumeClaims,
      input.persistentVolumes,
      input.storageClasses,
    );
    const bySignature = new Map<string, PodClass>();
    for (const [index, pod] of input.pods.entries()) {
      if (due?.() === true) yield;
      const created = this.#podFacts.created(pod);
      try {
        const vt = volumeTopology(pod, volumes);
        if (!vt.ok) {
          this.entries.push({
            pod,
            index,
            cls: undefined,
            error: vt.reason,
            requests: podRequests(pod),
            created,
            variant: undefined,
            placed: false,
          });
          continue;
        }
        // Pods with the same signature share everything derived from the spec, requests included.
        const signature = this.#podFacts.signature(pod, vt.requirements);
        let cls = bySignature.get(signature);
        if (cls === undefined) {
          const requests = podRequests(pod);
          cls = {
            id: this.classes.length,
            namespace: pod.metadata.namespace ?? 'default',
            labels: pod.metadata.labels,
            requests,
            vector: ResourceVector.fromList(requests, this.slots),
            hostPorts: podHostPorts(pod),
            volumes: vt.requirements,
            countedBy: [],
            repelledBy: [],
            exemplar: pod,
          };
          this.#bases.push(
            this.#makeVariant(cls, initialView(pod, this.options.ignorePreferences), 0, podKey(pod)),
          );
          bySignature.set(signature, cls);
          this.classes.push(cls);
        }
        const base = this.#bases[cls.id]!;
        this.entries.push({
          pod,
          index,
          cls,
          error: undefined,
          requests: cls.requests,
          created,
          variant: base,
          placed: false,
        });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        let requests: ResourceList = new Map();
        try {
          requests = podRequests(pod);
        } catch {
          // The requests themselves are what is invalid; the message says so.
        }
        this.entries.push({
          pod,
          index,
          cls: undefined,
          error: `invalid pod spec: ${message}`,
          requests,
          created,
          variant: undefined,
          placed: false,
        });
      }
    }
  }

  #makeVariant(cls: PodClass, view: PodView, depth: number, owner: string): Variant {
    const options = requirementOptions(cls.exemplar, view, cls.volumes).slice(0, MAX_OPTIONS);
    const filterTerms = nodeFilterTerms(cls.exemplar, view);
    const uses = ownedGroupSpecs(cls, view, filterTerms, this.#namespaces).map(({ spec, honorAffinity }) => {
      const group = this.#internForward(spec);
      return { group, self: group.selects(cls.namespace, cls.labels), honorAffinity };
    });
    const repels = inverseGroupSpecs(cls, view, this.#namespaces).map((spec) =>
      this.#internInverse(spec, owner),
    );
    return new Variant(this.#variants++, cls, view, depth, {
      options,
      uses,
      repels,
      poolTaints: this.pools.map((p) => p.taints),
      existingCount: this.existing.length,
    });
  }

  /** The next relaxation of a variant (memoised), or null. */
  nextVariant(v: Variant): Variant | null {
    if (v.next !== undefined) return v.next;
    const r = relax(v.view, this.options.toleratePreferNoSchedule);
    v.next = r === undefined ? null : this.#makeVariant(v.cls, r.view, v.depth + 1, podKey(v.cls.exemplar));
    return v.next;
  }

  /**
   * Runs Karpenter's loop: each pod in queue order, relaxing one step per failed attempt. When
   * `expired` says so (asked before each pod), the pods still queued are left unplaced, marked
   * in `timedOut`, and the loop ends (`expired`). When `pause` says so (asked before each pod but
   * the first of a call, so every call makes progress) the loop returns `paused` with the queue
   * intact: calling `run` again with the same queue goes on exactly where it stopped, so a caller
   * can yield between slices and still get the result of one uninterrupted run.
   */
  run(queue: PodQueue, expired?: () => boolean, pause?: () => boolean): 'done' | 'expired' | 'paused' {
    for (let first = true; ; first = false) {
      // Before `expired`, so a pause does not read the deadline: one reading per pod either way.
      if (!first && pause?.() === true) return 'paused';
      if (expired?.() === true) {
        for (const i of queue.remaining()) if (!this.entries[i]!.placed) this.timedOut.add(i);
        return 'expired';
      }
      const i = queue.pop();
      if (i === undefined) return 'done';
      const entry = this.entries[i]!;
      const v = entry.variant!;
      if (this.#place(entry, v)) {
        entry.placed = true;
        continue;
      }
      const next = this.nextVariant(v);
      if (next !== null) {
        entry.variant = next;
        queue.push(i, true);
      } else {
        queue.push(i, false);
      }
    }
  }

  #place(entry: PodEntry, v: Variant): boolean {
    const fast = this.#prepareFast(v);
    for (const e of this.existing) {
      if (v.rejectedExisting[e.index] === 1) continue;
      if (fast > 0) {
        const refusal = this.#fastRefusal(e, fast);
        if (refusal === 2) v.rejectedExisting[e.index] = 1;
        if (refusal > 0) continue;
      }
      if (this.#tryExisting(entry, v, e)) return true;
    }
    // The hot loop: most claims are turned away by the permanent-refusal bits or the masks.
    const counts = this.order.counts();
    const claims = this.claims;
    let rejected = v.rejectedClaims;
    for (let ci = 0; ci < counts.length; ci++) {
      const bucket = this.order.bucket(counts[ci]!);
      for (let j = 0; j < bucket.length; j++) {
        const id = bucket[j]!;
        if (id < rejected.length && rejected[id] === 1) continue;
        const c = claims[id]!;
        if (fast > 0) {
          const refusal = this.#fastRefusal(c, fast);
          if (refusal > 0) {
            if (refusal === 2) {
              v.rejectClaim(id);
              rejected = v.rejectedClaims;
            }
            continue;
          }
        }
        if (this.#tryClaim(entry, v, c)) return true;
        rejected = v.rejectedClaims;
      }
    }
    for (const pool of this.pools) {
      const result = this.evaluateFresh(v, pool);
      if ('stage' in result) continue;
      this.#openClaim(entry, v, pool, result.requirements, result.candidates);
      return true;
    }
    return false;
  }

  /** The first requirement option compatible with the target, merged into its requirements. */
  #merged(target: Target, v: Variant): Requirements | undefined {
    for (let i = 0; i < v.options.length; i++) {
      const r = this.#mergeOption(target, v, i);
      if (r !== null) {
        this.#mergedOption = i;
        return r;
      }
    }
    return undefined;
  }

  #mergeOption(target: Target, v: Variant, i: number): Requirements | null {
    const add = v.options[i]!.requirements;
    if (add.size === 0) return target.requirements;
    const key = v.id * MAX_OPTIONS + i;
    const cached = target.mergeCache?.get(key);
    if (cached !== undefined) return cached;
    const base = target.requirements;
    let out: Requirements | null = null;
    if (base.isCompatible(add, target.allowUndefined ? this.wellKnown.compat : undefined)) {
      const merged = base.copy().addAll(add);
      out = sameRequirements(base, merged, add) ? base : merged;
    }
    target.mergeCache ??= new Map();
    target.mergeCache.set(key, out);
    return out;
  }

  /**
   * Narrows requirements by every topology group the pod takes part in (its own groups, then the
   * anti-affinity of other pods that selects it), or undefined with #failGroup set.
   */
  #applyTopology(
    v: Variant,
    option: RequirementOption,
    requirements: Requirements,
    host: number,
    allowUndefined: boolean,
  ): Requirements | undefined {
    let out = requirements;
    this.#sig = '';
    this.#picks.length = 0;
    for (const use of v.uses) {
      const g = use.group;
      const podDomains = use.honorAffinity ? podDomainsFor(g, option) : undefined;
      const next = this.#narrow(g, use.self, podDomains, out, host, allowUndefined);
      if (next === undefined) return undefined;
      out = next;
    }
    const repelled = v.cls.repelledBy;
    for (let i = 0; i < repelled.length; i++) {
      const g = repelled[i]!;
      const next = this.#narrow(g, false, option.strict.get(g.spec.key), out, host, allowUndefined);
      if (next === undefined) return undefined;
      out = next;
    }
    return out;
  }

  #narrow(
    g: TopologyGroup,
    self: boolean,
    podDomains: Requirement | undefined,
    requirements: Requirements,
    host: number,
    allowUndefined: boolean,
  ): Requirements | undefined {
    const out = this.#domains;
    const anti = g.spec.type === 'anti-affinity';
    if (g.isHostname) {
      if (g.allowedDomains(self, podDomains, undefined, host, out) > 0) return requirements;
      this.#failGroup = g;
      this.#failPermanent = anti;
      return undefined;
    }
    const key = g.spec.key;
    const nodeReq = requirements.get(key);
    if (nodeReq === undefined && !(allowUndefined && this.wellKnown.keys.has(key))) {
      this.#failGroup = g;
      this.#failPermanent = false;
      return undefined;
    }
    const excluded = this.#excluded.size === 0 ? undefined : this.#excluded.get(g.id);
    const nodeDomains =
      excluded === undefined
        ? nodeReq
        : (nodeReq?.intersection(Requirement.create(key, 'NotIn', excluded)) ??
          Requirement.create(key, 'NotIn', excluded));
    const n = g.allowedDomains(self, podDomains, nodeDomains, host, out);
    if (n === 0) {
      this.#failGroup = g;
      this.#failPermanent = anti && excluded === undefined;
      return undefined;
    }
    if (nodeReq !== undefined && !nodeReq.complement && nodeReq.values.size === n) return requirements;
    const names = out.map((d) => g.domains.name(d));
    if (n === 1 && !anti && allowUndefined) this.#picks.push({ group: g, domain: names[0]! });
    this.#sig += `${key}=${names.join(',')};`;
    return requirements.copy().add(Requirement.create(key, 'In', names));
  }

  /**
   * After a topology narrowing left a new or open claim with no launchable type: skips the last
   * domain chosen by a spread or bootstrapping affinity, so the next #applyTopology picks the
   * next allowed one (Karpenter narrows to the domains its types can launch into). False when
   * nothing was chosen, i.e. no other domain could do.
   */
  #excludeLastPick(): boolean {
    const pick = this.#picks.at(-1);
    if (pick === undefined) return false;
    const list = this.#excluded.get(pick.group.id);
    if (list === undefined) this.#excluded.set(pick.group.id, [pick.domain]);
    else list.push(pick.domain);
    return true;
  }

  #tryExisting(entry: PodEntry, v: Variant, e: ExistingTarget): boolean {
    const cls = v.cls;
    if (untoleratedTaint(e.taints, v.tolerations) !== undefined) return this.#rejectExisting(v, e);
    if (cls.hostPorts.length > 0 && hostPortConflict(e.ports, cls.hostPorts) !== undefined) {
      return this.#rejectExisting(v, e);
    }
    if (!cls.vector.fits(e.available)) return this.#rejectExisting(v, e);
    // Each volume alternative is a different set of domains: one refused by topology (a zone
    // that already holds an anti-affine pod) leaves the others to try.
    let permanent = true;
    for (let i = 0; i < v.options.length; i++) {
      const merged = this.#mergeOption(e, v, i);
      if (merged === null) continue;
      this.#excluded.clear();
      const r = this.#applyTopology(v, v.options[i]!, merged, e.host, false);
      if (r === undefined) {
        permanent &&= this.#failPermanent;
        continue;
      }
      e.available.subInPlace(cls.vector);
      this.#setRequirements(e, r);
      this.#commit(entry, v, e);
      return true;
    }
    return permanent ? this.#rejectExisting(v, e) : false;
  }

  #rejectExisting(v: Variant, e: ExistingTarget): false {
    v.rejectedExisting[e.index] = 1;
    return false;
  }

  #setRequirements(t: Target, r: Requirements): void {
    if (t.requirements !== r) {
      t.requirements = r;
      t.mergeCache?.clear();
      t.domainIds.fill(UNKNOWN_DOMAIN);
    }
  }

  /** The domain id (below MASK_DOMAINS) the target is pinned to for a key, or -1. */
  #domainOf(t: Target, g: TopologyGroup): number {
    const slot = g.domains.slot;
    if (slot >= t.domainIds.length) {
      const grown = emptyDomainIds(slot + 1);
      grown.set(t.domainIds);
      t.domainIds = grown;
    }
    let d = t.domainIds[slot]!;
    if (d !== UNKNOWN_DOMAIN) return d;
    const r = t.requirements.get(g.spec.key);
    d = -1;
    if (r !== undefined && !r.complement && r.values.size === 1) {
      const id = g.domains.id(r.values.values().next().value!);
      if (id < MASK_DOMAINS) d = id;
    }
    t.domainIds[slot] = d;
    return d;
  }

  /**
   * Per attempt: for each small-keyed group the variant meets, the domains a target pinned to one
   * domain may be in. Filled into #fastGroups / #fastMasks; returns how many.
   */
  #prepareFast(v: Variant): number {
    if (v.options.length !== 1) return 0;
    const option = v.options[0]!;
    let n = 0;
    for (const use of v.uses) {
      const g = use.group;
      n = this.#addFast(n, g, use.self, use.honorAffinity ? podDomainsFor(g, option) : undefined);
    }
    for (const g of v.cls.repelledBy) n = this.#addFast(n, g, false, option.strict.get(g.spec.key));
    return n;
  }

  #addFast(n: number, g: TopologyGroup, self: boolean, podDomains: Requirement | undefined): number {
    if (g.isHostname || g.domains.size > MASK_DOMAINS) return n;
    this.#fastGroups[n] = g;
    this.#fastMasks[n] = g.allowedMask(self, podDomains);
    return n + 1;
  }

  /** 0 when the fast masks allow the target, 1 when they refuse it for now, 2 for good. */
  #fastRefusal(t: Target, n: number): number {
    for (let k = 0; k < n; k++) {
      const g = this.#fastGroups[k]!;
      const d = this.#domainOf(t, g);
      if (d >= 0 && ((this.#fastMasks[k]! >> d) & 1) === 0) return g.spec.type === 'anti-affinity' ? 2 : 1;
    }
    return 0;
  }

  #commit(entry: PodEntry, v: Variant, target: Target): void {
    target.pods.push(entry.pod);
    target.podRequests.push(v.cls.requests);
    if (v.cls.hostPorts.length > 0) target.ports.push(...v.cls.hostPorts);
    this.#record(v, target);
  }

  #record(v: Variant, target: Target): void {
    const counted = v.cls.countedBy;
    for (let i = 0; i < counted.length; i++) this.#recordInto(counted[i]!, target);
    for (const g of v.repels) this.#recordDomains(g, target, true);
    this.#log.push({ cls: v.cls, target });
  }

  #recordInto(g: TopologyGroup, target: Target): void {
    const filter = g.spec.filter;
    if (
      (filter.terms !== undefined || filter.tolerations !== undefined) &&
      !nodeFilterMatches(
        filter,
        target.taints,
        target.requirements,
        target.allowUndefined,
        this.wellKnown.compat,
      )
    ) {
      return;
    }
    this.#recordDomains(g, target, g.spec.type === 'anti-affinity');
  }

  /** Anti-affinity blocks every domain the node might be in; the others count only a known domain. */
  #recordDomains(g: TopologyGroup, target: Target, all: boolean): void {
    if (g.isHostname) {
      g.record(target.host);
      return;
    }
    const r = target.requirements.get(g.spec.key);
    if (r === undefined || r.complement) return;
    if (all) for (const value of r.values) g.record(g.domains.id(value));
    else if (r.values.size === 1) g.record(g.domains.id(r.values.values().next().value!));
  }

  #tryClaim(entry: PodEntry, v: Variant, c: Claim): boolean {
    const cls = v.cls;
    const pool = c.pool;
    if (v.untolerated[pool.index] !== null) return this.#rejectClaim(v, c);
    if (cls.hostPorts.length > 0 && hostPortConflict(c.ports, cls.hostPorts) !== undefined) {
      return this.#rejectClaim(v, c);
    }
    let permanent = true;
    for (let option = 0; option < v.options.length; option++) {
      const merged = this.#mergeOption(c, v, option);
      if (merged === null) continue;
      const outcome = this.#tryClaimOption(entry, v, c, option, merged);
      if (outcome === 'placed') return true;
      permanent &&= outcome === 'never';
    }
    return permanent ? this.#rejectClaim(v, c) : false;
  }

  /** One requirement option of a claim attempt: placed, refused for now, or refused for good. */
  #tryClaimOption(
    entry: PodEntry,
    v: Variant,
    c: Claim,
    option: number,
    merged: Requirements,
  ): 'placed' | 'later' | 'never' {
    const cls = v.cls;
    const pool = c.pool;
    let cands = c.candidates;
    let size = c.size;
    if (merged !== c.requirements) {
      cands = this.#filterTypes(pool, cands, size, merged);
      size = cands.length;
    }
    c.requests.addInPlace(cls.vector);
    const fit = this.#firstFit(pool, c.requests, cands, size);
    if (fit < 0) {
      c.requests.subInPlace(cls.vector);
      return 'never';
    }
    this.#excluded.clear();
    let r: Requirements | undefined;
    let start = fit;
    for (;;) {
      r = this.#applyTopology(v, v.options[option]!, merged, c.host, true);
      if (r === undefined) {
        c.requests.subInPlace(cls.vector);
        return this.#failPermanent ? 'never' : 'later';
      }
      if (r === merged) break;
      const narrowed = this.#filterTypes(pool, cands.subarray(fit, size), size - fit, r);
      start = this.#firstFit(pool, c.requests, narrowed, narrowed.length);
      if (start >= 0) {
        cands = narrowed;
        size = narrowed.length;
        break;
      }
      if (!this.#excludeLastPick()) {
        c.requests.subInPlace(cls.vector);
        return 'later';
      }
    }
    if (r.hasMinValues()) {
      const exact = this.#exactFits(pool, c.requests, cands.subarray(start, size));
      if (!this.#minValuesOk(pool, exact, r)) {
        c.requests.subInPlace(cls.vector);
        return 'later';
      }
      cands = exact;
      start = 0;
      size = exact.length;
    }
    // Types before the first fit did not fit these requests and never will again.
    if (cands === c.candidates) {
      if (start > 0) {
        cands.copyWithin(0, start, size);
        size -= start;
      }
    } else if (start > 0) {
      cands = cands.slice(start, size);
      size = cands.length;
    }
    c.candidates = cands;
    c.size = size;
    this.#setRequirements(c, r);
    this.order.increment(c.id, c.pods.length);
    this.#commit(entry, v, c);
    return 'placed';
  }

  #rejectClaim(v: Variant, c: Claim): false {
    v.rejectClaim(c.id);
    return false;
  }

  /** Candidates compatible with the requirements and with a launchable offering under them. */
  #filterTypes(pool: Pool, cands: Int32Array, size: number, r: Requirements): Int32Array {
    const ok = pool.filters.filter(pool, r);
    const out = new Int32Array(size);
    let n = 0;
    for (let i = 0; i < size; i++) if (ok[cands[i]!] === 1) out[n++] = cands[i]!;
    return n === size ? out : out.slice(0, n);
  }

  /** Position of the first candidate with room for the requests, or -1. */
  #firstFit(pool: Pool, requests: ResourceVector, cands: Int32Array, size: number): number {
    for (let i = 0; i < size; i++) if (requests.fits(pool.types[cands[i]!]!.free)) return i;
    return -1;
  }

  #exactFits(pool: Pool, requests: ResourceVector, cands: Int32Array): Int32Array {
    return cands.filter((i) => requests.fits(pool.types[i]!.free));
  }

  #minValuesOk(pool: Pool, cands: Int32Array, r: Requirements): boolean {
    if (this.options.minValuesPolicy === 'BestEffort') return cands.length > 0;
    return satisfiesMinValues(
      Array.from(cands, (i) => pool.types[i]!.type),
      r,
    ).satisfied;
  }

  /**
   * Whether a new NodeClaim from the pool would take the variant now: its requirements and
   * candidate types if so, else the first check that failed. Changes nothing.
   */
  evaluateFresh(
    v: Variant,
    pool: Pool,
  ): { requirements: Requirements; candidates: Int32Array } | FreshFailure {
    if (pool.types.length === 0) return { stage: 'no-types' };
    if (v.untolerated[pool.index] !== null) return { stage: 'taint' };
    const cls = v.cls;
    if (cls.hostPorts.length > 0 && hostPortConflict(pool.daemonHostPorts, cls.hostPorts) !== undefined) {
      return { stage: 'port' };
    }
    const bases = this.#freshBases(v, pool);
    if ('stage' in bases) return bases;
    // A later volume alternative may reach domains the first one's topology refuses.
    let first: FreshFailure | undefined;
    for (const base of bases) {
      const r = this.#evaluateFreshOption(v, pool, base);
      if (!('stage' in r)) return r;
      first ??= r;
    }
    return first!;
  }

  #evaluateFreshOption(
    v: Variant,
    pool: Pool,
    base: FreshBase,
  ): { requirements: Requirements; candidates: Int32Array } | FreshFailure {
    let cands = base.candidates;
    const limits = pool.limits;
    if (limits !== undefined) {
      cands = cands.filter((i) => limits.admits(pool.types[i]!.limitCapacity));
      if (cands.length === 0) return { stage: 'limits', option: base.option };
    }
    const option = v.options[base.option]!;
    this.#excluded.clear();
    // The first narrowing that left no type explains the pod if no other domain does better.
    let unlaunchable: FreshFailure | undefined;
    let r: Requirements | undefined;
    for (;;) {
      r = this.#applyTopology(v, option, base.requirements, FreshDomain, true);
      if (r === undefined)
        return (
          unlaunchable ?? { stage: 'topology', group: this.#failGroup!, requirements: base.requirements }
        );
      if (r === base.requirements) break;
      let narrowed = base.narrowed.get(this.#sig);
      if (narrowed === undefined) {
        narrowed = this.#filterTypes(pool, base.candidates, base.candidates.length, r);
        base.narrowed.set(this.#sig, narrowed);
      }
      const within =
        limits === undefined ? narrowed : narrowed.filter((i) => limits.admits(pool.types[i]!.limitCapacity));
      if (within.length > 0) {
        cands = within;
        break;
      }
      unlaunchable ??= { stage: 'topology-types', option: base.option, requirements: r };
      if (!this.#excludeLastPick()) return unlaunchable;
    }
    if (r.hasMinValues() && !this.#minValuesOk(pool, cands, r)) {
      return { stage: 'min-values', requirements: r, candidates: cands };
    }
    return { requirements: r, candidates: cands };
  }

  #freshBases(v: Variant, pool: Pool): FreshCache {
    const cached = v.fresh[pool.index] as FreshCache | undefined;
    if (cached !== undefined) return cached;
    const found: FreshBase[] = [];
    let firstTypesFailure: FreshFailure | undefined;
    for (let i = 0; i < v.options.length; i++) {
      const add = v.options[i]!.requirements;
      if (!pool.requirements.isCompatible(add, this.wellKnown.compat)) continue;
      const r = add.size === 0 ? pool.requirements : pool.requirements.copy().addAll(add);
      const all = new Int32Array(pool.types.length);
      let n = 0;
      const vec = v.cls.vector;
      for (const t of pool.types) {
        if (!vec.fits(t.free)) continue;
        if (
          r !== pool.requirements &&
          !(typeCompatible(t.type, r) && hasLaunchableOffering(t.type.offerings, r))
        )
          continue;
        all[n++] = t.index;
      }
      if (n === 0) {
        firstTypesFailure ??= { stage: 'types', option: i };
        continue;
      }
      found.push({ option: i, requirements: r, candidates: all.slice(0, n), narrowed: new Map() });
    }
    const result: FreshCache = found.length > 0 ? found : (firstTypesFailure ?? { stage: 'requirements' });
    v.fresh[pool.index] = result;
    return result;
  }

  /**
   * The cached start of a new claim (requirements and candidates before limits) for a
   * requirement option, by default the first that has one.
   */
  freshStart(
    v: Variant,
    pool: Pool,
    option?: number,
  ): { requirements: Requirements; candidates: Int32Array } | undefined {
    const bases = this.#freshBases(v, pool);
    if ('stage' in bases) return undefined;
    return option === undefined ? bases[0] : bases.find((b) => b.option === option);
  }

  /** Why existing capacity refuses a variant now, or undefined if it would take it. Changes nothing. */
  existingFailure(
    v: Variant,
    e: ExistingTarget,
  ):
    | { kind: 'taint' | 'port' | 'requirements' }
    | { kind: 'resources'; slot: number }
    | { kind: 'topology'; group: TopologyGroup; requirements: Requirements }
    | undefined {
    if (untoleratedTaint(e.taints, v.tolerations) !== undefined) return { kind: 'taint' };
    if (v.cls.hostPorts.length > 0 && hostPortConflict(e.ports, v.cls.hostPorts) !== undefined)
      return { kind: 'port' };
    const slot = v.cls.vector.firstMisfit(e.available);
    if (slot >= 0) return { kind: 'resources', slot };
    const merged = this.#merged(e, v);
    if (merged === undefined) return { kind: 'requirements' };
    this.#excluded.clear();
    const r = this.#applyTopology(v, v.options[this.#mergedOption]!, merged, e.host, false);
    if (r === undefined) return { kind: 'topology', group: this.#failGroup!, requirements: merged };
    return undefined;
  }

  #openClaim(entry: PodEntry, v: Variant, pool: Pool, r: Requirements, cands: Int32Array): void {
    const id = this.claims.length;
    const hostname = `hostname-placeholder-${String(id + 1).padStart(4, '0')}`;
    const host = this.topology.registerHostname(hostname);
    const claim: Claim = {
      kind: 'claim',
      id,
      pool,
      hostname,
      host,
      requirements: r,
      taints: pool.taints,
      allowUndefined: true,
      ports: [...pool.daemonHostPorts],
      pods: [],
      podRequests: [],
      mergeCache: new Map(),
      domainIds: emptyDomainIds(this.topology.keyCount),
      candidates: cands.slice(),
      size: cands.length,
      requests: v.cls.vector.clone(),
      charged: pool.limits?.subtractMax(Array.from(cands, (i) => pool.types[i]!.limitCapacity)) ?? [],
    };
    this.claims.push(claim);
    this.order.add(id, 1);
    this.#commit(entry, v, claim);
  }
}
