import { ConflictError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { DeleteOptions } from '../port.js';
import { groupOf, type ResourceType } from '../resource-type.js';

/**
 * Fails with Conflict when a delete precondition does not hold, worded as kube-apiserver's
 * `rest.BeforeDelete` words it: that check runs first and names the group and Kind (not the
 * plural), so `details.kind` is the Kind too.
 */
export function checkPreconditions(
  type: ResourceType,
  obj: KubeObject,
  preconditions: DeleteOptions['preconditions'],
): void {
  const name = obj.metadata.name ?? '';
  if (preconditions?.uid !== undefined && preconditions.uid !== obj.metadata.uid) {
    throw failed(
      type,
      name,
      `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (
    preconditions?.resourceVersion !== undefined &&
    preconditions.resourceVersion !== obj.metadata.resourceVersion
  ) {
    throw failed(
      type,
      name,
      `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

function failed(type: ResourceType, name: string, why: string): ConflictError {
  const group = groupOf(type);
  const groupKind = group === '' ? type.kind : `${type.kind}.${group}`;
  return new ConflictError(`Operation cannot be fulfilled on ${groupKind} "${name}": ${why}`, {
    name,
    group,
    kind: type.kind,
  });
}
