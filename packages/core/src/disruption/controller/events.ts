import type { EventRecorder } from '../../operator/runtime/event-recorder.js';
import type { ClusterState } from '../../state/cluster-state.js';

/** Reasons of the events the disruption controller publishes (filterable with a field selector). */
export const DisruptionEventReasons = {
  /**
   * Node, NodeClaim: not disrupted now; the message is the rule that blocks it. NodePool: its
   * disruption budget allows no disruption for a reason some of its nodes qualify for.
   */
  DisruptionBlocked: 'DisruptionBlocked',
  /**
   * Node, NodeClaim: consolidation tried it this pass and could neither delete nor replace it;
   * the message says why (as Karpenter's event of this reason).
   */
  Unconsolidatable: 'Unconsolidatable',
  /** Node: replacements are being launched before it is deleted. */
  DisruptionLaunching: 'DisruptionLaunching',
  /** Node, NodeClaim: its NodeClaim is being deleted (drained, then terminated). */
  DisruptionTerminating: 'DisruptionTerminating',
  /** Node: a decided disruption was abandoned (validation failed, or a replacement failed). */
  DisruptionAborted: 'DisruptionAborted',
} as const;

/** Publishes on the Node named, when cluster state knows it (a Node already gone gets nothing). */
export async function publishOnNode(
  deps: { readonly state: ClusterState; readonly events: EventRecorder },
  nodeName: string,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Promise<void> {
  const node = deps.state.node(nodeName);
  if (node !== undefined) await deps.events.publish({ object: node, type, reason, message });
}
