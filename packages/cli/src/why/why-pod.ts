import type { NodePool, Pod } from '@nodewright/core/apis';
import type { ParsedManifest } from '@nodewright/core/manifests';
import type { SolverInput, SolverResult } from '@nodewright/core/scheduling';
import { isMarkedUnschedulable, podId, whyNodePoolUnusable } from '@nodewright/core/snapshot';
import { formatPerHour } from '../format/index.js';
import type { ObjectEvent } from '../live/recent-events.js';
import { type NodeClaimJson, nodeClaimJson } from '../snapshot/claim-json.js';
import type { ClusterRead } from '../snapshot/read-cluster.js';
import { type CheapestFit, cheapestFit } from './cheapest-fit.js';
import { splitUnschedulableReason } from './unschedulable-reason.js';

/** Where a pod stands. */
export type PodVerdict =
  /** It has a node (spec.nodeName). */
  | 'bound'
  /** The provisioner leaves it alone (DaemonSet pod, another scheduler, finished, deleting). */
  | 'ignored'
  /** Pending; it fits capacity that exists or is being launched. */
  | 'fits-existing'
  /** Pending; a new NodeClaim would be launched for it. */
  | 'would-launch'
  /** Pending; no NodePool can launch a node for it. */
  | 'unschedulable';

/** One NodePool's part in the answer. */
export interface NodePoolVerdict {
  readonly nodePool: string;
  /** `ruled-out`: the solver's reason; `not-used`: the NodePool launches nothing now; `chosen`; `not-needed`. */
  readonly verdict: 'ruled-out' | 'not-used' | 'chosen' | 'not-needed';
  readonly reason: string;
}

/** `nodewright why pod -o json`: see docs/cli.md. */
export interface WhyPodReport {
  readonly pod: string;
  readonly verdict: PodVerdict;
  /** One sentence. */
  readonly summary: string;
  /** Its node (bound) or the existing capacity it fits (fits-existing). */
  readonly node?: string;
  /** The NodeClaim that would be launched for it (would-launch). */
  readonly nodeClaim?: NodeClaimJson;
  /** Every NodePool, in the order the solver tries them, then those it does not use. */
  readonly nodePools: NodePoolVerdict[];
  /** Why existing nodes refuse it, as the solver summarises it. */
  readonly existingNodes?: string;
  /** Statements of the solver about no NodePool in particular. */
  readonly other: string[];
  /** The cheapest type of the catalogs that would hold it if a NodePool allowed it; null when none would. */
  readonly cheapestFit: CheapestFit | null;
  /** Why no type would hold it even then (with cheapestFit null). */
  readonly cheapestFitReason?: string;
  readonly notes: string[];
  /** The newest Events about the pod (FailedScheduling, Nominated, ...), when read from a cluster. */
  readonly events?: ObjectEvent[];
}

const isKind = (p: ParsedManifest, apiVersion: string, kind: string) =>
  p.manifest.apiVersion === apiVersion && p.manifest.kind === kind;

/**
 * Why one pod is where it is, decided as `schedule` decides (one solve over every pending pod,
 * as the controller makes it) and explained per NodePool with the solver's own reasons (those
 * `schedule` and the FailedScheduling event give), plus the cheapest instance type of the
 * catalogs that would hold the pod were a NodePool to allow it (see cheapestFit). Undefined
 * when the pod is not among the objects read.
 */
export function explainPod(
  read: ClusterRead,
  key: { readonly namespace: string; readonly name: string },
  solve: (input: SolverInput) => SolverResult,
): WhyPodReport | undefined {
  const report = podReport(read, key, solve);
  if (report === undefined) return undefined;
  // The answer first, for people reading the JSON.
  const { pod, verdict, summary, ...rest } = report;
  return { pod, verdict, summary, ...rest };
}

function podReport(
  read: ClusterRead,
  key: { readonly namespace: string; readonly name: string },
  solve: (input: SolverInput) => SolverResult,
): WhyPodReport | undefined {
  const id = `${key.namespace}/${key.name}`;
  const pod = read.parsed
    .filter((p) => isKind(p, 'v1', 'Pod'))
    .map((p) => p.value as Pod)
    .find((p) => podId(p) === id);
  if (pod === undefined) return undefined;
  const pools = read.parsed
    .filter((p) => isKind(p, 'karpenter.sh/v1', 'NodePool'))
    .map((p) => p.value as NodePool);
  const unused: NodePoolVerdict[] = pools.flatMap((pool) => {
    const why = whyNodePoolUnusable(pool);
    return why === undefined
      ? []
      : [{ nodePool: pool.metadata.name ?? '', verdict: 'not-used' as const, reason: why }];
  });
  const notes = [...read.snapshot.notes];
  const base = { pod: id, nodePools: unused, other: [], cheapestFit: null, notes };

  if (pod.spec.nodeName !== undefined && pod.spec.nodeName !== '')
    return {
      ...base,
      verdict: 'bound',
      summary: `not pending: it is bound to node ${pod.spec.nodeName} (phase ${pod.status?.phase ?? 'unknown'})`,
      node: pod.spec.nodeName,
    };
  const ignored = read.snapshot.ignored.find((i) => i.pod === id);
  if (ignored !== undefined)
    return { ...base, verdict: 'ignored', summary: `not provisioned for: ${ignored.reason}` };

  const input = read.snapshot.input;
  if (!isMarkedUnschedulable(pod))
    notes.push(
      'kube-scheduler has not marked it Unschedulable (PodScheduled=False): the controller provisions for it only once it has',
    );
  const fit = cheapestFit(input, pod, pools[0], solve);
  const fitPart = 'fit' in fit ? { cheapestFit: fit.fit } : { cheapestFit: null, cheapestFitReason: fit.why };
  const result = solve(input);
  const claim = result.newClaims.find((c) => c.pods.some((p) => podId(p) === id));
  const usable = input.nodePools.map((p) => p.metadata.name ?? '');
  if (claim !== undefined) {
    const json = nodeClaimJson(claim);
    return {
      ...base,
      ...fitPart,
      verdict: 'would-launch',
      summary: `pending: a NodeClaim from NodePool ${claim.nodePool} would be launched for it (${json.instanceTypes[0] ?? 'no type'} first, ${formatPerHour(claim.price)})`,
      nodeClaim: json,
      nodePools: [
        ...usable.map((name) =>
          name === claim.nodePool
            ? {
                nodePool: name,
                verdict: 'chosen' as const,
                reason: `would launch ${json.instanceTypes.length} candidate instance types, cheapest ${formatPerHour(claim.price)}`,
              }
            : {
                nodePool: name,
                verdict: 'not-needed' as const,
                reason: `the pod goes to NodePool ${claim.nodePool}`,
              },
        ),
        ...unused,
      ],
    };
  }
  const existing = result.existing.find((e) => e.pods.some((p) => podId(p) === id));
  if (existing !== undefined)
    return {
      ...base,
      ...fitPart,
      verdict: 'fits-existing',
      summary: `pending: it fits ${existing.name}, which exists or is being launched; no new node is needed`,
      node: existing.name,
      nodePools: [
        ...usable.map((name) => ({
          nodePool: name,
          verdict: 'not-needed' as const,
          reason: `the pod fits ${existing.name}`,
        })),
        ...unused,
      ],
    };
  const reason = result.unschedulable.find((u) => podId(u.pod) === id)?.reason ?? 'not placed';
  const split = splitUnschedulableReason(reason);
  const ruledOut = split.nodePools.map((p) => ({
    nodePool: p.nodePool,
    verdict: 'ruled-out' as const,
    reason: p.reason,
  }));
  return {
    ...base,
    ...fitPart,
    verdict: 'unschedulable',
    summary:
      ruledOut.length === 0
        ? `unschedulable: ${reason}`
        : `unschedulable: ${ruledOut.length === 1 ? 'the only usable NodePool rules it out' : `all ${ruledOut.length} usable NodePools rule it out`}`,
    nodePools: [...ruledOut, ...unused],
    ...(split.existingNodes === undefined ? {} : { existingNodes: split.existingNodes }),
    other: [...split.other],
  };
}
