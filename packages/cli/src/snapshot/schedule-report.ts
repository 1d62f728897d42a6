import type { Pod } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import type { ResourceList, SolverInput, SolverResult } from '@nodewright/core/scheduling';
import { formatPerHour, plural } from '../format/index.js';
import type { IgnoredPod } from './build-snapshot.js';
import { type NodeClaimJson, nodeClaimsJson } from './claim-json.js';
import { podId } from './pod-role.js';

/** `nodewright schedule -o json`: the CLI contract's object, plus `ignored` and `notes`. */
export interface ScheduleReport {
  readonly nodeClaims: NodeClaimJson[];
  /** Existing (or in-flight) capacity that receives pending pods; nodes receiving none are left out. */
  readonly existingNodes: Array<{ readonly name: string; readonly pods: string[] }>;
  readonly unschedulable: Array<{ readonly pod: string; readonly reason: string }>;
  readonly summary: {
    /** Pending pods the decision placed or failed to place. */
    readonly pods: number;
    readonly scheduled: number;
    readonly nodeClaims: number;
    readonly pricePerHour: number;
    /** null when no type could hold the pods (never for pods the solver placed). */
    readonly lowerBoundPerHour: number | null;
    /** The resources that set the lower bound. */
    readonly lowerBoundBy: string[];
  };
  /** Pods left out of the decision and why (DaemonSet pods, other schedulers, ...). */
  readonly ignored: IgnoredPod[];
  readonly notes: string[];
}

/**
 * What the report needs besides the decision: the requests the solver counted per pod (without
 * DaemonSet overhead) and a provable lower bound over pods' requests and instance types
 * (core's explainLowerBound).
 */
export interface ReportFunctions {
  readonly podRequests: (pod: Pod) => ResourceList;
  readonly lowerBound: (
    podRequests: Iterable<ResourceList>,
    instanceTypes: Iterable<InstanceType>,
  ) => { readonly perHour: number; readonly binding: readonly string[] };
}

/** Decimals prices are reported to; the bound is rounded down so it stays a bound. */
const PriceDecimals = 6;
const Scale = 10 ** PriceDecimals;

/**
 * The report of one decision. `lowerBoundPerHour` bounds the cost of any placement of the pods
 * the solver put on new NodeClaims onto the instance types of every NodePool (see
 * explainLowerBound); pods placed on existing capacity cost nothing new, so they are left out.
 */
export function scheduleReport(
  input: SolverInput,
  result: SolverResult,
  functions: ReportFunctions,
  extra: { ignored: IgnoredPod[]; notes: string[] },
): ScheduleReport {
  const onNewClaims = result.newClaims.flatMap((c) => c.pods);
  const types = new Set<InstanceType>();
  for (const list of input.instanceTypes.values()) for (const t of list) types.add(t);
  const bound = functions.lowerBound(onNewClaims.map(functions.podRequests), types);
  const price = result.newClaims.reduce((sum, c) => sum + c.price, 0);
  const existingNodes = result.existing
    .filter((e) => e.pods.length > 0)
    .map((e) => ({ name: e.name, pods: e.pods.map(podId) }));
  const onExisting = existingNodes.reduce((n, e) => n + e.pods.length, 0);
  return {
    nodeClaims: nodeClaimsJson(result.newClaims),
    existingNodes,
    unschedulable: result.unschedulable.map((u) => ({ pod: podId(u.pod), reason: u.reason })),
    summary: {
      pods: input.pods.length,
      scheduled: onNewClaims.length + onExisting,
      nodeClaims: result.newClaims.length,
      pricePerHour: Math.round(price * Scale) / Scale,
      lowerBoundPerHour: Number.isFinite(bound.perHour) ? Math.floor(bound.perHour * Scale) / Scale : null,
      lowerBoundBy: [...bound.binding],
    },
    ignored: extra.ignored,
    notes: extra.notes,
  };
}

/** Instance types shown per claim in text output before "and N more". */
const ShownTypes = 5;

/**
 * The report for people: one block per new NodeClaim, the pods placed on existing nodes, the
 * unschedulable pods with their reasons, what was ignored, then the summary.
 */
export function renderScheduleText(report: ScheduleReport): string {
  const lines: string[] = [];
  for (const [i, claim] of report.nodeClaims.entries()) {
    const more = claim.instanceTypes.length - ShownTypes;
    const types = claim.instanceTypes.slice(0, ShownTypes).join(', ') + (more > 0 ? ` and ${more} more` : '');
    lines.push(
      `NodeClaim ${i + 1} from NodePool ${claim.nodePool}: ${plural(claim.pods.length, 'pod')}, ${formatPerHour(claim.price)}`,
      `  instance types: ${types}`,
      `  requirements:   ${claim.requirements.map(requirementText).join('; ')}`,
      `  requests:       ${Object.entries(claim.requests)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
      `  pods:           ${claim.pods.join(', ')}`,
      '',
    );
  }
  for (const node of report.existingNodes) {
    lines.push(`Existing node ${node.name}: ${node.pods.join(', ')}`);
  }
  if (report.existingNodes.length > 0) lines.push('');
  if (report.unschedulable.length > 0) {
    lines.push(`Unschedulable (${report.unschedulable.length}):`);
    for (const u of report.unschedulable) lines.push(`  ${u.pod}: ${u.reason}`);
    lines.push('');
  }
  if (report.ignored.length > 0) {
    lines.push(`Ignored (${report.ignored.length}):`);
    for (const p of report.ignored) lines.push(`  ${p.pod}: ${p.reason}`);
    lines.push('');
  }
  for (const note of report.notes) lines.push(`Note: ${note}`);
  if (report.notes.length > 0) lines.push('');

  lines.push(summaryLine(report), priceLine(report.summary));
  return `${lines.join('\n')}\n`;
}

function summaryLine(report: ScheduleReport): string {
  const s = report.summary;
  const onClaims = report.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
  const onExisting = s.scheduled - onClaims;
  const where = [
    ...(s.nodeClaims > 0 ? [`${onClaims} on ${plural(s.nodeClaims, 'new NodeClaim')}`] : []),
    ...(onExisting > 0 ? [`${onExisting} on existing nodes`] : []),
  ];
  const placed = where.length === 0 ? '' : ` (${where.join(', ')})`;
  return `Summary: ${plural(s.pods, 'pending pod')}, ${s.scheduled} scheduled${placed}, ${report.unschedulable.length} unschedulable`;
}

/**
 * The price of the new NodeClaims beside the lower bound, the ratio spelt out: a reader should
 * not have to know that the bound is what no placement can beat.
 */
function priceLine(s: ScheduleReport['summary']): string {
  const price = formatPerHour(s.pricePerHour);
  if (s.nodeClaims === 0) return `Price: ${price}: no new NodeClaims to buy`;
  if (s.lowerBoundPerHour === null)
    return `Price: ${price} for the new NodeClaims; no lower bound (no instance type holds these pods)`;
  const bound = formatPerHour(s.lowerBoundPerHour, { round: 'down' });
  const by = s.lowerBoundBy.length > 0 ? ` (set by ${s.lowerBoundBy.join(' and ')})` : '';
  const meaning = `${bound}${by}: no packing of these pods onto new nodes can cost less`;
  if (s.lowerBoundPerHour <= 0) return `Price: ${price} for the new NodeClaims; lower bound ${meaning}`;
  const ratio = s.pricePerHour / s.lowerBoundPerHour;
  return `Price: ${price} for the new NodeClaims, ${ratio.toFixed(2)}x the lower bound ${meaning}`;
}

function requirementText(r: {
  key: string;
  operator: string;
  values?: readonly string[];
  minValues?: number;
}): string {
  const values = r.values === undefined ? '' : ` [${abbreviate(r.values)}]`;
  const min = r.minValues === undefined ? '' : ` (minValues ${r.minValues})`;
  return `${r.key} ${r.operator}${values}${min}`;
}

function abbreviate(values: readonly string[]): string {
  const more = values.length - ShownTypes;
  return values.slice(0, ShownTypes).join(', ') + (more > 0 ? ` and ${more} more` : '');
}
