import type { Node, NodePool } from '@nodewright/core/apis';
import type { DisruptReport } from '../commands/disrupt.js';
import { formatPerHour } from '../format/index.js';
import type { ObjectEvent } from '../live/recent-events.js';

/** `nodewright why node -o json`: see docs/cli.md. */
export interface WhyNodeReport {
  readonly node: string;
  /** Its karpenter.sh/nodepool label; null for a node nodewright does not manage. */
  readonly nodePool: string | null;
  readonly managed: boolean;
  /** One sentence. */
  readonly summary: string;
  /** What `disrupt` reports for this node (absent for an unmanaged node). */
  readonly disruption?: DisruptReport['candidates'][number];
  /** The command of this pass that takes the node, if one does. */
  readonly command?: DisruptReport['commands'][number];
  /** Its NodePool's allowed disruptions per reason at the start of the pass (null = unlimited). */
  readonly budgets: Array<{
    readonly reason: string;
    readonly nodes: number;
    readonly allowed: number | null;
  }>;
  /** Its NodePool's consolidation settings. */
  readonly consolidation?: { readonly policy: string; readonly consolidateAfter: string };
  readonly now: string;
  readonly notes: string[];
  /** The newest Events about the node (DisruptionBlocked, ...), when read from a cluster. */
  readonly events?: ObjectEvent[];
}

/**
 * Why one node is or is not being disrupted: the disruption pass `disrupt` runs, narrowed to the
 * node — its verdict, the rule that blocks it or the reasons it may go, the note of a method that
 * tried it (no cheaper replacement, pods that would not fit, with the prices), the command that
 * takes it, and its NodePool's budgets and consolidation settings. Undefined when no such node
 * is among the objects read.
 */
export function explainNode(
  report: DisruptReport,
  name: string,
  nodes: readonly Node[],
  nodePools: readonly NodePool[],
): WhyNodeReport | undefined {
  const node = nodes.find((n) => n.metadata.name === name);
  if (node === undefined) return undefined;
  const base = { node: name, now: report.now, notes: report.notes };
  const head = (nodePool: string | null, managed: boolean, summary: string) => ({
    node: name,
    nodePool,
    managed,
    summary,
  });
  const status = report.candidates.find((c) => c.node === name);
  if (status === undefined)
    return {
      ...head(
        null,
        false,
        'not managed: it has no karpenter.sh/nodepool label (or no NodeClaim owns it), so it is never consolidated or drifted',
      ),
      ...base,
      budgets: [],
    };
  const command = report.commands.find((c) => c.candidates.includes(name));
  const pool = nodePools.find((p) => p.metadata.name === status.nodePool);
  const disruption = pool?.spec.disruption;
  return {
    ...head(status.nodePool, true, summaryOf(status, command)),
    ...base,
    disruption: status,
    ...(command === undefined ? {} : { command }),
    budgets: report.budgets
      .filter((b) => b.nodePool === status.nodePool)
      .map((b) => ({ reason: b.reason, nodes: b.nodes, allowed: b.allowed })),
    ...(disruption === undefined
      ? {}
      : {
          consolidation: {
            policy: disruption.consolidationPolicy,
            consolidateAfter: String(disruption.consolidateAfter),
          },
        }),
  };
}

function summaryOf(
  status: DisruptReport['candidates'][number],
  command: DisruptReport['commands'][number] | undefined,
): string {
  if (command !== undefined) {
    const action =
      command.replacements.length === 0
        ? 'deleted'
        : `replaced by ${command.replacements.length} new NodeClaim(s)`;
    return `being disrupted: ${command.method} (${command.reason}) would have it ${action}, saving ${formatPerHour(command.savingsPerHour)}`;
  }
  if (!status.disruptable) return `not disrupted: ${status.blockedBy ?? 'blocked'}`;
  const tried = status.note === undefined ? '' : `; ${status.note}`;
  return `disruptable for ${status.reasons.join(', ')}, but not disrupted in this pass${tried}`;
}
