import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodeClassKindRef } from './cloud-provider.js';
import { NodeClassNotReadyError } from './errors.js';

/**
 * The name of the NodeClass a NodeClaim launches from, when its nodeClassRef is of the one kind
 * `provider` resolves; otherwise NodeClassNotReadyError naming the kind it referenced, since no
 * NodeClass of another kind can ever become Ready for this provider.
 */
export function nodeClassNameOf(nodeClaim: NodeClaim, kind: NodeClassKindRef, provider: string): string {
  const ref = nodeClaim.spec.nodeClassRef;
  if (ref.group !== kind.group || ref.kind !== kind.kind) {
    throw new NodeClassNotReadyError(
      `NodeClaim ${nodeClaim.metadata.name ?? ''} references ${ref.group}/${ref.kind} ${ref.name}; the ${provider} provider resolves only ${kind.kind}`,
    );
  }
  return ref.name;
}
