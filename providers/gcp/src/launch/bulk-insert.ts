import { Labels } from '@nodewright/core/apis';
import { NvidiaGpuResource } from '../instancetype/labels.js';
import type { GceInstanceResource } from '../sdk/compute-api.js';
import type { LaunchCandidate } from './launcher.js';

/**
 * At most this many machine types go into one flexible request (GCE accepts a handful of
 * instance selections; ten keeps the request well inside its limits and is more alternatives
 * than a stockout usually needs).
 */
export const MaxFlexibleTypes = 10;

/** The machine types one instances.bulkInsert offers the cloud, with what they share. */
export interface FlexibleGroup {
  readonly zone: string;
  readonly capacityType: string;
  /** The candidates, cheapest first, one per machine type: the cloud takes the first it has. */
  readonly candidates: readonly LaunchCandidate[];
}

function shape(c: LaunchCandidate): string {
  const labels = c.instanceType.requirements.labels();
  return `${labels[Labels.Arch] ?? 'amd64'}/${c.instanceType.capacity.has(NvidiaGpuResource) ? 'gpu' : 'cpu'}`;
}

/**
 * The flexible request for the cheapest candidate: it and the next cheapest types in the same
 * zone and capacity type that take the same boot image (architecture) and the same
 * host-maintenance policy (GPU or not), cheapest first, at most {@link MaxFlexibleTypes}. One
 * request then covers a zone's stockout of the first choice without another round trip.
 * `candidates` must be sorted cheapest first; returns undefined when there are none.
 */
export function flexibleGroup(candidates: readonly LaunchCandidate[]): FlexibleGroup | undefined {
  const first = candidates[0];
  if (first === undefined) return undefined;
  const { zone, capacityType } = first.offering;
  const kind = shape(first);
  const seen = new Set<string>();
  const chosen: LaunchCandidate[] = [];
  for (const c of candidates) {
    if (chosen.length >= MaxFlexibleTypes) break;
    if (c.offering.zone !== zone || c.offering.capacityType !== capacityType || shape(c) !== kind) continue;
    if (seen.has(c.instanceType.name)) continue;
    seen.add(c.instanceType.name);
    chosen.push(c);
  }
  return { zone, capacityType, candidates: chosen };
}

/**
 * The labels every type of the group carries with the same value: what the kubelet may register
 * with before the cloud has picked the type (the rest reach the Node from the NodeClaim).
 */
export function commonLabels(group: FlexibleGroup): Record<string, string> {
  const [first, ...rest] = group.candidates.map((c) => c.instanceType.requirements.labels());
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(first ?? {})) {
    if (rest.every((l) => l[k] === v)) out[k] = v;
  }
  return out;
}

/**
 * The instances.bulkInsert body for one VM named `name` in the group's zone: the insert body
 * as instance properties (which take bare machine-type and disk-type names, and no name), and
 * an instance flexibility policy ranking the group's types cheapest first.
 */
export function bulkInsertBody(
  name: string,
  group: FlexibleGroup,
  instance: GceInstanceResource,
): GceInstanceResource {
  const {
    name: _name,
    machineType: _type,
    disks,
    ...rest
  } = instance as {
    name?: unknown;
    machineType?: unknown;
    disks?: { initializeParams?: { diskType?: string } }[];
  } & Record<string, unknown>;
  const bare = (disks ?? []).map((d) =>
    d.initializeParams?.diskType === undefined
      ? d
      : {
          ...d,
          initializeParams: { ...d.initializeParams, diskType: d.initializeParams.diskType.split('/').pop() },
        },
  );
  const selections = Object.fromEntries(
    group.candidates.map((c, rank) => [`rank-${rank}`, { machineTypes: [c.instanceType.name], rank }]),
  );
  return {
    count: '1',
    minCount: '1',
    perInstanceProperties: { [name]: {} },
    instanceProperties: { ...rest, machineType: group.candidates[0]!.instanceType.name, disks: bare },
    instanceFlexibilityPolicy: { instanceSelections: selections },
  };
}
