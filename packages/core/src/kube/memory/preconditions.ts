import { conflict } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { DeleteOptions } from '../port.js';
import type { ResourceType } from '../resource-type.js';

/** Fails with Conflict, worded as the API server words it, when a delete precondition does not hold. */
export function checkPreconditions(
  type: ResourceType,
  obj: KubeObject,
  preconditions: DeleteOptions['preconditions'],
): void {
  const name = obj.metadata.name ?? '';
  if (preconditions?.uid !== undefined && preconditions.uid !== obj.metadata.uid) {
    throw conflict(
      type,
      name,
      `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
    );
  }
  if (
    preconditions?.resourceVersion !== undefined &&
    preconditions.resourceVersion !== obj.metadata.resourceVersion
  ) {
    throw conflict(
      type,
      name,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
}
