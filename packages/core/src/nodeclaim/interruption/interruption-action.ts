import type { InterruptionKind, InterruptionNotice } from '../../cloudprovider/cloud-provider.js';

/** Reasons of the events the interruption controller publishes on the NodeClaim concerned. */
export const InterruptionEventReasons = {
  /** The cloud reclaims a spot instance; the claim is deleted. */
  SpotInterrupted: 'SpotInterrupted',
  /** The cloud scheduled maintenance that takes the instance; the claim is deleted. */
  ScheduledMaintenance: 'InstanceUnhealthy',
  /** The instance is stopping; the claim is deleted. */
  InstanceStopping: 'InstanceStopping',
  /** The instance is terminating or terminated; the claim is deleted. */
  InstanceTerminating: 'InstanceTerminating',
  /** The cloud advises moving off the instance; informational only. */
  RebalanceRecommendation: 'SpotRebalanceRecommendation',
} as const;

/** The `karpenter_nodeclaims_disrupted_total` reason for claims deleted on a notice. */
export const InterruptionDisruptionReason = 'interruption';

/** What to do about one notice for a known NodeClaim. */
export interface InterruptionAction {
  /** Delete the NodeClaim (termination cordons and drains it before the deadline). */
  readonly deleteClaim: boolean;
  /** Mark the notice's offering unavailable so the next launch avoids it. */
  readonly markOfferingUnavailable: boolean;
  readonly eventReason: string;
  readonly eventType: 'Normal' | 'Warning';
}

const actions: Record<InterruptionKind, InterruptionAction> = {
  SpotInterruption: {
    deleteClaim: true,
    markOfferingUnavailable: true,
    eventReason: InterruptionEventReasons.SpotInterrupted,
    eventType: 'Warning',
  },
  ScheduledMaintenance: {
    deleteClaim: true,
    markOfferingUnavailable: false,
    eventReason: InterruptionEventReasons.ScheduledMaintenance,
    eventType: 'Warning',
  },
  InstanceStopping: {
    deleteClaim: true,
    markOfferingUnavailable: false,
    eventReason: InterruptionEventReasons.InstanceStopping,
    eventType: 'Warning',
  },
  InstanceTerminated: {
    deleteClaim: true,
    markOfferingUnavailable: false,
    eventReason: InterruptionEventReasons.InstanceTerminating,
    eventType: 'Warning',
  },
  // A recommendation is not a deadline: replacing the node is disruption's call, not ours.
  RebalanceRecommendation: {
    deleteClaim: false,
    markOfferingUnavailable: false,
    eventReason: InterruptionEventReasons.RebalanceRecommendation,
    eventType: 'Normal',
  },
};

/** The action for a notice's kind; pure, so every kind's handling is testable without a cluster. */
export function interruptionAction(kind: InterruptionKind): InterruptionAction {
  return actions[kind];
}

/** The event message for a notice, with its deadline when the cloud gave one. */
export function interruptionMessage(notice: InterruptionNotice, deleting: boolean): string {
  const deadline =
    notice.deadline === undefined ? '' : ` (instance taken at ${new Date(notice.deadline).toISOString()})`;
  const tail = deleting ? '; deleting the NodeClaim' : '';
  return `${notice.kind}: ${notice.message}${deadline}${tail}`;
}
