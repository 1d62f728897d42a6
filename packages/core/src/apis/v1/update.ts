import { canonicalJson } from '../common/hash.js';
import { type FieldError, formatFieldPath } from '../field-errors.js';
import type { NodeClaim } from './nodeclaim.js';
import type { NodePool } from './nodepool.js';

function violation(segments: readonly PropertyKey[], message: string): FieldError {
  return { path: formatFieldPath(segments), segments, message };
}

/**
 * The transition rules the NodePool CRD enforces on update, which a schema alone cannot
 * check: nodeClassRef's group and kind are immutable, and replicas can be neither added nor
 * removed (a NodePool stays static or dynamic). Both arguments are parsed NodePools; the
 * result is empty when the update is allowed.
 */
export function validateNodePoolUpdate(old: NodePool, next: NodePool): FieldError[] {
  const errors: FieldError[] = [];
  const ref = ['spec', 'template', 'spec', 'nodeClassRef'];
  const before = old.spec.template.spec.nodeClassRef;
  const after = next.spec.template.spec.nodeClassRef;
  if (before.group !== after.group)
    errors.push(violation([...ref, 'group'], 'nodeClassRef.group is immutable'));
  if (before.kind !== after.kind) errors.push(violation([...ref, 'kind'], 'nodeClassRef.kind is immutable'));
  if ((old.spec.replicas === undefined) !== (next.spec.replicas === undefined)) {
    errors.push(
      violation(
        ['spec', 'replicas'],
        'replicas cannot be added or removed: a NodePool cannot switch between static and dynamic provisioning',
      ),
    );
  }
  return errors;
}

/** A NodeClaim's spec never changes after creation; empty when the update keeps it. */
export function validateNodeClaimUpdate(old: NodeClaim, next: NodeClaim): FieldError[] {
  return canonicalJson(old.spec) === canonicalJson(next.spec)
    ? []
    : [violation(['spec'], 'spec is immutable')];
}
