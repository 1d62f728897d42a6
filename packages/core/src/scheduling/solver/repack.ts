import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import { ResourceVector } from '../resources/resource-vector.js';
import { PoolLimits } from './limits.js';
import type { PodClass, Variant } from './pod-class.js';
import type { Pool, PoolType } from './pools.js';
import type { Scheduler } from './scheduler.js';
import { type Claim, emptyDomainIds } from './target.js';
import type { LaunchInfo } from './type-filter.js';

/**
 * The cost pass after Karpenter's greedy one. The greedy fills the biggest type a claim can still
 * become, so with mixed pods one claim ends up cpu-bound and the next memory-bound, and a claim
 * may be one big node where two small ones cost less. Pods that nothing constrains (no topology,
 * no affinity, no host ports, selected by no topology group) can go anywhere their NodePool and
 * requirements allow, so the claims holding only such pods are re-packed with a vector
 * bin-packing heuristic, and the new claims kept when they are cheaper and within limits.
 */
export function repack(s: Scheduler): void {
  const variantOf = new Map<Pod, Variant>();
  for (const e of s.entries) if (e.placed && e.variant !== undefined) variantOf.set(e.pod, e.variant);
  const groups = new Map<string, Claim[]>();
  for (const c of s.claims) {
    const key = plainKey(c, variantOf);
    if (key === undefined) continue;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [c]);
    else list.push(c);
  }
  if (groups.size === 0) return;
  const replaced = new Map<Claim, Claim[]>();
  for (const claims of groups.values()) {
    const bins = repackGroup(s, claims, variantOf);
    if (bins === undefined) continue;
    replaced.set(claims[0]!, bins);
    for (const c of claims.slice(1)) replaced.set(c, []);
  }
  if (replaced.size === 0) return;
  s.claims = s.claims.flatMap((c) => replaced.get(c) ?? [c]);
}

function isFree(v: Variant): boolean {
  const cls = v.cls;
  return (
    v.uses.length === 0 &&
    v.repels.length === 0 &&
    cls.countedBy.length === 0 &&
    cls.repelledBy.length === 0 &&
    cls.hostPorts.length === 0 &&
    v.options.length === 1
  );
}

/** The group a claim of only unconstrained pods belongs to (NodePool and requirements), if it is one. */
function plainKey(c: Claim, variantOf: ReadonlyMap<Pod, Variant>): string | undefined {
  if (c.requirements.hasMinValues()) return undefined;
  let key: string | undefined;
  for (const p of c.pods) {
    const v = variantOf.get(p);
    if (v === undefined || !isFree(v)) return undefined;
    const k = `${c.pool.index}\u0000${JSON.stringify(v.options[0]!.requirements.toNodeSelectorRequirements())}`;
    if (key === undefined) key = k;
    else if (key !== k) return undefined;
  }
  return key;
}

/** Price of the cheapest type with room for the requests, and the types with room, cheapest first. */
function fitting(pool: Pool, launch: LaunchInfo, allowed: Uint8Array, requests: ResourceVector): PoolType[] {
  const out: PoolType[] = [];
  for (const i of launch.order(pool.types)) {
    if (allowed[i] === 1 && requests.fits(pool.types[i]!.free)) out.push(pool.types[i]!);
  }
  return out;
}

/** Pods of one class still to place. */
interface Queue {
  readonly pods: Pod[];
  next: number;
}

function left(q: Queue): number {
  return q.pods.length - q.next;
}

interface Bin {
  readonly requests: ResourceVector;
  readonly pods: Pod[];
  readonly podRequests: ResourceList[];
  readonly types: PoolType[];
  readonly price: number;
}

function repackGroup(
  s: Scheduler,
  claims: readonly Claim[],
  variantOf: ReadonlyMap<Pod, Variant>,
): Claim[] | undefined {
  const pool = claims[0]!.pool;
  const r: Requirements = claims[0]!.requirements;
  const launch = pool.filters.launchInfo(r);
  const allowed = pool.filters.filter(pool, r);
  let oldCost = 0;
  for (const c of claims) {
    const t = fitting(pool, launch, allowed, c.requests)[0];
    if (t === undefined) return undefined;
    oldCost += launch.price(t);
  }
  // Pods by class: identical requests, counted down as they are packed.
  const classes: PodClass[] = [];
  const pending = new Map<PodClass, Queue>();
  for (const c of claims) {
    for (const p of c.pods) {
      const cls = variantOf.get(p)!.cls;
      let q = pending.get(cls);
      if (q === undefined) {
        q = { pods: [], next: 0 };
        pending.set(cls, q);
        classes.push(cls);
      }
      q.pods.push(p);
    }
  }
  const slots = s.slots.size;
  const types = launch.order(pool.types).filter((i) => allowed[i] === 1);
  // Several starts, the cheapest packing kept: the heuristic's own choice of first node, then
  // each of the next best first nodes by its score, each filled by either pod order. One greedy
  // pass is often a node off on a handful of large pods; the starts cost a few passes more.
  let best: { bins: Bin[]; cost: number } | undefined;
  const firsts: Array<PoolType | undefined> = [
    undefined,
    ...firstChoices(pool, launch, types, classes, pending, slots),
  ];
  for (const first of firsts) {
    for (const order of FillOrders) {
      for (const q of pending.values()) q.next = 0;
      const bins: Bin[] = [];
      let newCost = 0;
      const limit = Math.min(oldCost, best?.cost ?? oldCost);
      let forced = first;
      while (classes.some((c) => left(pending.get(c)!) > 0)) {
        const bin = fillBin(pool, launch, allowed, types, classes, pending, slots, order, forced);
        forced = undefined;
        if (bin === undefined) {
          newCost = Number.POSITIVE_INFINITY;
          break;
        }
        newCost += bin.price;
        bins.push(bin);
        // Past the merge pass's reach, nothing can bring the cost back under the limit.
        if (newCost >= limit && bins.length > MaxMergedBins) break;
      }
      if (newCost === Number.POSITIVE_INFINITY || (newCost >= limit && bins.length > MaxMergedBins)) continue;
      const merged = mergeBins(pool, launch, allowed, bins, slots);
      const mergedCost = merged.reduce((sum, b) => sum + b.price, 0);
      if (mergedCost < limit * (1 - 1e-9)) best = { bins: merged, cost: mergedCost };
    }
  }
  if (best === undefined) return undefined;
  const bins = best.bins;
  const limits = pool.limits;
  if (limits !== undefined) {
    const freed = claims.map((c) => c.charged);
    const taken = bins.map((b) =>
      PoolLimits.maxOf(
        limits.names.length,
        b.types.map((t) => t.limitCapacity),
      ),
    );
    for (let i = 0; i < limits.names.length; i++) {
      let left = limits.remaining[i]!;
      for (const f of freed) left += f[i] ?? 0n;
      for (const t of taken) left -= t[i]!;
      if (left < 0n) return undefined;
    }
    for (const f of freed) limits.restore(f);
    for (const t of taken) limits.restore(t.map((x) => -x));
  }
  return bins.map((b, k) => ({
    kind: 'claim',
    id: -1,
    pool,
    hostname: `${claims[0]!.hostname}-repacked-${k}`,
    host: -1,
    requirements: r,
    taints: pool.taints,
    allowUndefined: true,
    ports: [],
    pods: b.pods,
    podRequests: b.podRequests,
    mergeCache: new Map(),
    domainIds: emptyDomainIds(0),
    candidates: Int32Array.from(b.types, (t) => t.index).sort(),
    size: b.types.length,
    requests: b.requests,
    charged: [],
  }));
}

/** Bins merged pairwise at most this many: the pass is quadratic in them. */
const MaxMergedBins = 64;

/**
 * Merges two nodes into one wherever the cheapest type that holds both costs no more than the
 * two, until no pair merges (fewer nodes for the same price or less). The fill leaves its last
 * few nodes small — each is the best share per price of what is left, and small nodes price as
 * well per unit as large ones — so three small nodes often fit one that costs less than them.
 */
function mergeBins(pool: Pool, launch: LaunchInfo, allowed: Uint8Array, bins: Bin[], slots: number): Bin[] {
  if (bins.length < 2 || bins.length > MaxMergedBins) return bins;
  const out = [...bins];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!;
        const b = out[j]!;
        const requests = ResourceVector.zero(slots);
        requests.addInPlace(a.requests);
        requests.addInPlace(b.requests);
        const kept = fitting(pool, launch, allowed, requests);
        if (kept.length === 0) continue;
        const price = launch.price(kept[0]!);
        if (price > (a.price + b.price) * (1 + 1e-9)) continue;
        out[i] = {
          requests,
          pods: [...a.pods, ...b.pods],
          podRequests: [...a.podRequests, ...b.podRequests],
          types: kept,
          price,
        };
        out.splice(j, 1);
        merged = true;
      }
    }
  }
  return out;
}

/**
 * How a node is filled: `dot-product` takes the pod whose shape best matches the room left;
 * `largest` the pod that takes the largest share of the node (its scarcest resource).
 */
type FillOrder = 'dot-product' | 'largest';
const FillOrders: readonly FillOrder[] = ['dot-product', 'largest'];
/** First nodes tried besides the heuristic's own choice. */
const FirstChoices = 4;

/** What is left to pack, per resource slot. */
function demandOf(
  classes: readonly PodClass[],
  pending: ReadonlyMap<PodClass, Queue>,
  slots: number,
): Float64Array {
  const demand = new Float64Array(slots);
  for (const c of classes) {
    const n = left(pending.get(c)!);
    if (n === 0) continue;
    for (let d = 0; d < slots; d++) demand[d]! += c.vector.approx(d) * n;
  }
  return demand;
}

/** Each type's share of the demand it can hold (its scarcest resource), per unit of price, best first. */
function rankTypes(
  pool: Pool,
  launch: LaunchInfo,
  types: Iterable<number>,
  demand: Float64Array,
): Array<{ type: PoolType; score: number; share: number }> {
  const ranked: Array<{ type: PoolType; score: number; share: number }> = [];
  for (const i of types) {
    const t = pool.types[i]!;
    let share = 1;
    for (let d = 0; d < demand.length; d++) {
      if (demand[d]! <= 0) continue;
      share = Math.min(share, Math.max(0, t.free.approx(d)) / demand[d]!);
    }
    const price = launch.price(t);
    const score = price > 0 ? share / price : share === 0 ? 0 : Number.POSITIVE_INFINITY;
    ranked.push({ type: t, score, share });
  }
  // Stable: equal scores keep the price order of `types`, larger share first.
  return ranked.sort((a, b) =>
    a.score > b.score * (1 + 1e-12) ? -1 : b.score > a.score * (1 + 1e-12) ? 1 : b.share - a.share,
  );
}

/** The types ranked just after the heuristic's own first choice, for the other starts. */
function firstChoices(
  pool: Pool,
  launch: LaunchInfo,
  types: Iterable<number>,
  classes: readonly PodClass[],
  pending: ReadonlyMap<PodClass, Queue>,
  slots: number,
): PoolType[] {
  return rankTypes(pool, launch, types, demandOf(classes, pending, slots))
    .filter((r) => r.share > 0 && classes.some((c) => c.vector.fits(r.type.free)))
    .slice(1, 1 + FirstChoices)
    .map((r) => r.type);
}

/**
 * One new node: `forced`, else the type that holds the largest share of what is left per unit of
 * price, filled in `order`, then shrunk to the cheapest type that still holds what went in.
 */
function fillBin(
  pool: Pool,
  launch: LaunchInfo,
  allowed: Uint8Array,
  types: ArrayLike<number> & Iterable<number>,
  classes: readonly PodClass[],
  pending: ReadonlyMap<PodClass, Queue>,
  slots: number,
  order: FillOrder,
  forced: PoolType | undefined,
): Bin | undefined {
  // A type that holds none of the pods left would open an empty node: skip to the next best.
  const holdsOne = (t: PoolType) => classes.some((c) => left(pending.get(c)!) > 0 && c.vector.fits(t.free));
  const best =
    forced ??
    rankTypes(pool, launch, types, demandOf(classes, pending, slots)).find((r) => holdsOne(r.type))?.type;
  if (best === undefined) return undefined;
  const free = best.free;
  const room = Float64Array.from({ length: slots }, (_, d) => Math.max(0, free.approx(d)));
  const used = ResourceVector.zero(slots);
  const usedApprox = new Float64Array(slots);
  const pods: Pod[] = [];
  const podRequests: ResourceList[] = [];
  for (;;) {
    let pick: PodClass | undefined;
    let pickScore = -1;
    let pickSize = -1;
    for (const c of classes) {
      if (left(pending.get(c)!) === 0) continue;
      used.addInPlace(c.vector);
      const ok = used.fits(free);
      used.subInPlace(c.vector);
      if (!ok) continue;
      let score = 0;
      let size = 0;
      for (let d = 0; d < slots; d++) {
        if (room[d]! <= 0) continue;
        const need = c.vector.approx(d) / room[d]!;
        score =
          order === 'largest'
            ? Math.max(score, need)
            : score + need * ((room[d]! - usedApprox[d]!) / room[d]!);
        size += need;
      }
      if (score > pickScore || (score === pickScore && size > pickSize)) {
        pick = c;
        pickScore = score;
        pickSize = size;
      }
    }
    if (pick === undefined) break;
    const q = pending.get(pick)!;
    const p = q.pods[q.next++]!;
    pods.push(p);
    podRequests.push(pick.requests);
    used.addInPlace(pick.vector);
    for (let d = 0; d < slots; d++) usedApprox[d]! += pick.vector.approx(d);
  }
  if (pods.length === 0) return undefined;
  const kept = fitting(pool, launch, allowed, used);
  if (kept.length === 0) return undefined;
  return { requests: used, pods, podRequests, types: kept, price: launch.price(kept[0]!) };
}
