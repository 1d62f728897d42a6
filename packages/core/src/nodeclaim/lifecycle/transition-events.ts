import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { ConditionTypes, isConditionTrue } from '../../lifecycle/conditions.js';
import { EventReasons } from '../../lifecycle/events.js';
import type { PublishedEvent } from '../../operator/runtime/event-recorder.js';

function launchedMessage(claim: NodeClaim): string {
  const labels = claim.metadata.labels ?? {};
  const offering = [labels[Labels.InstanceType], labels[Labels.CapacityType]].filter(Boolean).join(' ');
  const zone = labels[Labels.Zone];
  const where = offering === '' ? '' : ` (${offering}${zone === undefined ? '' : ` in ${zone}`})`;
  return `Launched instance ${claim.status?.providerID ?? ''}${where}`;
}

/**
 * The Normal events a reconcile's condition changes call for, on the claim as written: Launched,
 * Registered and Initialized, each when that condition turns True between `before` (as stored)
 * and `after` (as written). A condition already True before publishes nothing, so each event
 * appears once per claim however often the claim is reconciled.
 */
export function transitionEvents(before: NodeClaim, after: NodeClaim): PublishedEvent[] {
  const turned = (type: string) =>
    !isConditionTrue(before.status?.conditions, type) && isConditionTrue(after.status?.conditions, type);
  const node = after.status?.nodeName ?? '';
  const events: PublishedEvent[] = [];
  if (turned(ConditionTypes.Launched))
    events.push({
      object: after,
      type: 'Normal',
      reason: EventReasons.Launched,
      message: launchedMessage(after),
    });
  if (turned(ConditionTypes.Registered))
    events.push({
      object: after,
      type: 'Normal',
      reason: EventReasons.Registered,
      message: `Node ${node} registered`,
    });
  if (turned(ConditionTypes.Initialized))
    events.push({
      object: after,
      type: 'Normal',
      reason: EventReasons.Initialized,
      message: `Node ${node} initialized: Ready, startup taints removed, resources registered`,
    });
  return events;
}
