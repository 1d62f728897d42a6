import { Labels } from '../../apis/labels.js';
import { type InstanceType, satisfiesMinValues } from '../../cloudprovider/instance-type.js';
import { describeHostPort, hostPortConflict } from '../pod/host-ports.js';
import type { Requirements } from '../requirements/requirements.js';
import { defaultFormatFor, describeResources } from '../resources/resource-list.js';
import { describeTaint } from '../taints/tolerations.js';
import type { TopologyGroup } from '../topology/topology-group.js';
import type { RequirementOption, Variant } from './pod-class.js';
import { hasLaunchableOffering, type Pool, type PoolType, typeCompatible } from './pools.js';
import type { FreshFailure, Scheduler } from './scheduler.js';

/** Most domains listed with their counts in a topology reason. */
const SHOWN_DOMAINS = 6;

function requirementConflict(s: Scheduler, pool: Pool, option: RequirementOption): string {
  const conflict = pool.requirements.compatibilityConflict(option.requirements, s.wellKnown.compat);
  if (conflict === undefined) return 'requirements conflict with the NodePool';
  const key = conflict.key;
  const fromVolume = option.volume.has(key);
  const what = fromVolume ? 'its volumes require' : 'requires';
  if (conflict.kind === 'undefined') {
    return `${what} ${conflict.incoming.toString()}, a label the NodePool's nodes do not have${conflict.message.includes('typo') ? conflict.message.slice(conflict.message.indexOf(' (typo')) : ''}`;
  }
  return `${what} ${conflict.incoming.toString()}, NodePool allows ${conflict.existing!.describe()}`;
}

function volumeSources(v: Variant, key: string): string {
  const sources = v.cls.volumes
    .filter((vr) => vr.alternatives.some((a) => a.has(key)))
    .map((vr) => `${vr.volume} (${vr.source})`);
  return sources.length === 0 ? '' : ` [volume ${sources.join(', ')}]`;
}

/**
 * Why none of `types` is compatible with `r` or has an available offering under it, blaming the
 * requirements in `blame` (the pod's, or the NodePool's own): the most specific statement that
 * holds. Undefined when some type is compatible and offered.
 */
function explainCatalog(
  types: readonly InstanceType[],
  r: Requirements,
  blame: Requirements,
  v: Variant | undefined,
): string | undefined {
  if (types.length === 0) return 'no instance types are offered';
  const compatible = types.filter((t) => t.requirements.intersects(r));
  if (compatible.length === 0) {
    for (const req of blame) {
      const need = r.get(req.key)!;
      const none = types.every((t) => {
        const tr = t.requirements.get(req.key);
        return tr !== undefined && !tr.intersects(need);
      });
      // Zones and capacity types are what offerings are made of; say so in those words.
      const what = req.key === Labels.Zone || req.key === Labels.CapacityType ? 'offering' : 'instance type';
      if (none)
        return `requirement ${need.toString()} matches no ${what}${v === undefined ? '' : volumeSources(v, req.key)}`;
    }
    return types.length === 0
      ? 'no instance types are offered'
      : `no instance type matches all of ${blame.toString()}`;
  }
  if (compatible.some((t) => hasLaunchableOffering(t.offerings, r))) return undefined;
  for (const key of [Labels.CapacityType, Labels.Zone]) {
    const need = r.get(key);
    if (need === undefined) continue;
    const anyOffering = compatible.some((t) =>
      t.offerings.some((o) => o.requirements.get(key)?.intersects(need) ?? true),
    );
    if (!anyOffering)
      return `requirement ${need.toString()} matches no offering${v === undefined ? '' : volumeSources(v, key)}`;
    const anyAvailable = compatible.some((t) =>
      t.offerings.some((o) => o.available && (o.requirements.get(key)?.intersects(need) ?? true)),
    );
    if (!anyAvailable) return `every offering matching ${need.toString()} is unavailable`;
  }
  const zone = r.get(Labels.Zone);
  const ct = r.get(Labels.CapacityType);
  const parts = [zone, ct].filter((x) => x !== undefined).map((x) => x!.toString());
  return parts.length === 0
    ? 'no offering is available'
    : `no available offering matches ${parts.join(' and ')}`;
}

/** Why no type is compatible, has an offering, or fits: the most specific statement that holds. */
function explainTypes(s: Scheduler, pool: Pool, v: Variant, option: RequirementOption): string {
  const r = pool.requirements.copy().addAll(option.requirements);
  const catalog = explainCatalog(
    pool.types.map((t) => t.type),
    r,
    option.requirements,
    v,
  );
  if (catalog !== undefined) return catalog;
  const offered = pool.types.filter(
    (t) => typeCompatible(t.type, r) && hasLaunchableOffering(t.type.offerings, r),
  );
  return explainFit(s, pool, v, offered);
}

/** Which requested resource no candidate has room for. */
function explainFit(s: Scheduler, pool: Pool, v: Variant, types: readonly PoolType[]): string {
  const vec = v.cls.vector;
  const short: string[] = [];
  const overhead = pool.daemonNames.length > 0;
  for (let slot = 0; slot < vec.length; slot++) {
    if (vec.units(slot) === 0 && vec.approx(slot) === 0) continue;
    let best = types[0]!;
    for (const t of types) if (t.free.cmpSlot(slot, best.free) > 0) best = t;
    if (vec.cmpSlot(slot, best.free) <= 0) continue;
    const name = s.slots.nameOf(slot);
    const format = defaultFormatFor(name);
    const offered = best.free.quantity(slot, format);
    const largest = offered.sign() < 0 ? '0' : offered.toString();
    short.push(
      `no instance type has ${vec.quantity(slot, format)} ${name} (largest offers ${largest}${overhead ? ' after DaemonSet overhead' : ''})`,
    );
  }
  if (short.length > 0) return short.join(', ');
  return `no single instance type has room for all of ${describeResources(v.cls.requests)}${overhead ? ' after DaemonSet overhead' : ''}`;
}

function domainCounts(g: TopologyGroup): string {
  if (g.isHostname) return '';
  const parts: string[] = [];
  const ids = g.domains.sortedIds();
  let shown = 0;
  let registered = 0;
  for (const d of ids) {
    if (!g.isRegistered(d)) continue;
    registered++;
    if (shown < SHOWN_DOMAINS) {
      parts.push(`${g.domains.name(d)}: ${g.count(d)}`);
      shown++;
    }
  }
  if (registered === 0) return ` (no ${g.spec.key} domain is known)`;
  return ` (${parts.join(', ')}${registered > shown ? `, and ${registered - shown} more` : ''})`;
}

/** A topology failure, in the words of the constraint that failed. */
export function explainTopology(s: Scheduler, g: TopologyGroup, requirements: Requirements): string {
  const key = g.spec.key;
  if (!g.isHostname && requirements.get(key) === undefined && !s.wellKnown.keys.has(key)) {
    return `topology key ${key} is not a label nodes get here (${g.describe()})`;
  }
  if (s.isInverse(g)) {
    const owners = s.ownersOf(g);
    return `would violate the pod anti-affinity on ${key} of ${owners.length === 0 ? 'other pods' : owners.join(', ')}`;
  }
  switch (g.spec.type) {
    case 'spread':
      return `would violate ${g.describe()}${domainCounts(g)}`;
    case 'affinity':
      return `would violate pod affinity on ${key}: no allowed ${key} domain has a matching pod${domainCounts(g)}`;
    default:
      return `would violate pod anti-affinity on ${key}: every allowed ${key} domain already has a matching pod`;
  }
}

function changedKeys(before: Requirements, after: Requirements): string {
  const out: string[] = [];
  for (const r of after) if (before.get(r.key) !== r) out.push(r.toString());
  return out.join(', ');
}

function explainFailure(s: Scheduler, v: Variant, pool: Pool, f: FreshFailure): string {
  const name = pool.name;
  switch (f.stage) {
    case 'no-types': {
      const why = explainCatalog(pool.allTypes, pool.requirements, pool.requirements, undefined);
      return `NodePool ${name}: launches nothing: ${why ?? 'no instance type is compatible with its requirements and has an available offering'}`;
    }
    case 'taint':
      return `NodePool ${name}: taint ${describeTaint(v.untolerated[pool.index]!)} not tolerated`;
    case 'port': {
      const c = hostPortConflict(pool.daemonHostPorts, v.cls.hostPorts);
      return `NodePool ${name}: host port ${c === undefined ? '' : describeHostPort(c.wanted)} is taken by a DaemonSet`;
    }
    case 'requirements':
      return `NodePool ${name}: ${requirementConflict(s, pool, v.options[0]!)}`;
    case 'types':
      return `NodePool ${name}: ${explainTypes(s, pool, v, v.options[f.option]!)}`;
    case 'limits': {
      const start = s.freshStart(v, pool, f.option);
      const limits = pool.limits!;
      const excluded = limits.names.map(() => 0);
      for (const i of start?.candidates ?? []) {
        const j = limits.firstExceeded(pool.types[i]!.limitCapacity);
        if (j >= 0) excluded[j]!++;
      }
      let worst = 0;
      for (let j = 1; j < excluded.length; j++) if (excluded[j]! > excluded[worst]!) worst = j;
      return `exceeds NodePool ${name} limits: ${limits.describe(worst)}`;
    }
    case 'topology':
      return `NodePool ${name}: ${explainTopology(s, f.group, f.requirements)}`;
    case 'topology-types': {
      const start = s.freshStart(v, pool, f.option);
      const narrowed = start === undefined ? '' : changedKeys(start.requirements, f.requirements);
      return `NodePool ${name}: topology needs ${narrowed || 'a narrower domain'}, where no instance type that fits has an available offering${pool.limits === undefined ? '' : ' within limits'}`;
    }
    case 'min-values': {
      const types = Array.from(f.candidates, (i) => pool.types[i]!.type);
      const check = satisfiesMinValues(types, f.requirements);
      if (check.satisfied) return `NodePool ${name}: minValues not met`;
      return `NodePool ${name}: minValues not met: ${check.key} needs ${check.minValues} distinct values, the instance types that fit offer ${check.found}`;
    }
  }
}

function explainExisting(s: Scheduler, v: Variant): string | undefined {
  const byReason = new Map<string, string[]>();
  for (const e of s.existing) {
    const f = s.existingFailure(v, e);
    let reason: string;
    if (f === undefined) continue;
    switch (f.kind) {
      case 'taint':
        reason = 'taint not tolerated';
        break;
      case 'port':
        reason = 'host port in use';
        break;
      case 'requirements':
        reason = 'labels do not match';
        break;
      case 'resources':
        reason = `not enough ${s.slots.nameOf(f.slot)}`;
        break;
      case 'topology':
        reason = explainTopology(s, f.group, f.requirements);
        break;
    }
    const names = byReason.get(reason) ?? [];
    names.push(e.name);
    byReason.set(reason, names);
  }
  if (byReason.size === 0) return undefined;
  const parts = [...byReason].map(([reason, names]) =>
    names.length <= 2 ? `${names.join(', ')}: ${reason}` : `${names.length} nodes: ${reason}`,
  );
  return `existing nodes: ${parts.join(', ')}`;
}

/**
 * Why a pod stayed unscheduled, per NodePool in try order (the first check a new NodeClaim of
 * that NodePool failed, made specific), then a summary of why existing capacity refused it.
 * Evaluated against the final state, which is the state of the pod's last attempt.
 */
export function explainUnschedulable(s: Scheduler, v: Variant): string {
  const parts: string[] = [];
  if (s.pools.length === 0) parts.push('no NodePool is available to launch a node');
  for (const pool of s.pools) {
    const r = s.evaluateFresh(v, pool);
    if ('stage' in r) parts.push(explainFailure(s, v, pool, r));
    else parts.push(`NodePool ${pool.name}: could take it now, but did not when last tried`);
  }
  const existing = explainExisting(s, v);
  if (existing !== undefined) parts.push(existing);
  return parts.join('; ');
}
