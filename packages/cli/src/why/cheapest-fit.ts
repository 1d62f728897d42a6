import { type NodePool, nodePoolSchema, type Pod } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import type { SolverInput, SolverResult } from '@nodewright/core/scheduling';
import { splitUnschedulableReason } from './unschedulable-reason.js';

/** The cheapest offering of any catalog that would hold a pod if a NodePool allowed it. */
export interface CheapestFit {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly pricePerHour: number;
}

/** The name of the NodePool that allows everything, as it appears in the solver's reasons. */
const OpenPoolName = 'any';

/**
 * A NodePool that rules nothing out: no requirements, taints or limits. Built from `base` (the
 * first NodePool, so its kubelet settings and labels shape the node as the cluster's would) or,
 * with none, from the schema's defaults.
 */
export function openNodePool(base: NodePool | undefined): NodePool {
  const template = base?.spec.template ?? nodePoolSchema.parse(MinimalNodePool).spec.template;
  const from = base ?? nodePoolSchema.parse(MinimalNodePool);
  const { limits: _limits, weight: _weight, replicas: _replicas, ...spec } = from.spec;
  const { taints: _taints, startupTaints: _startup, ...templateSpec } = template.spec;
  const { status: _status, ...pool } = from;
  return {
    ...pool,
    metadata: { name: OpenPoolName },
    spec: { ...spec, template: { ...template, spec: { ...templateSpec, requirements: [] } } },
  };
}

const MinimalNodePool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: OpenPoolName },
  spec: {
    template: {
      spec: { nodeClassRef: { group: 'nodewright.dev', kind: 'Any', name: 'any' }, requirements: [] },
    },
  },
};

/**
 * The cheapest instance type and offering, among all the catalogs' types, that the pod would get
 * from a NodePool that allowed everything: the solver's own choice over the open NodePool, so the
 * pod's requests, DaemonSet overhead, node selectors, affinity and volume zones all count. Either
 * the fit, or why even that NodePool could not take the pod (the solver's words).
 */
export function cheapestFit(
  input: SolverInput,
  pod: Pod,
  base: NodePool | undefined,
  solve: (input: SolverInput) => SolverResult,
): { readonly fit: CheapestFit } | { readonly why: string } {
  const byName = new Map<string, InstanceType>();
  for (const types of input.instanceTypes.values()) for (const t of types) byName.set(t.name, t);
  const pool = openNodePool(base);
  const { cache: _cache, ...shared } = input;
  const result = solve({
    ...shared,
    pods: [pod],
    nodePools: [pool],
    instanceTypes: new Map([[OpenPoolName, [...byName.values()]]]),
    nodePoolUsage: new Map(),
  });
  const claim = result.newClaims[0];
  if (claim === undefined) {
    const reason = result.unschedulable[0]?.reason;
    if (reason !== undefined) {
      // Only what ruled out the open NodePool: existing nodes are explained apart.
      const split = splitUnschedulableReason(reason);
      return { why: split.nodePools.find((p) => p.nodePool === OpenPoolName)?.reason ?? reason };
    }
    const node = result.existing.find((e) => e.pods.length > 0)?.name;
    return { why: `it fits existing node ${node ?? '(unknown)'}: no new node is needed` };
  }
  const type = claim.instanceTypes[0]!;
  const offering = type.offerings
    .filter((o) => o.available && claim.requirements.intersects(o.requirements))
    .reduce(
      (best, o) => (best === undefined || o.price < best.price ? o : best),
      undefined as (typeof type.offerings)[number] | undefined,
    );
  return {
    fit: {
      instanceType: type.name,
      zone: offering?.zone ?? '',
      capacityType: offering?.capacityType ?? '',
      pricePerHour: offering?.price ?? claim.price,
    },
  };
}
