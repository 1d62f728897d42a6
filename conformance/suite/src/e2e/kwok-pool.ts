import type { ClusterPort, UntypedObject } from '@nodewright/core/kube';
import { NodePools, resourceType } from '@nodewright/core/kube';
import { type NodeClassRef, type NodePoolOptions, nodePoolManifest } from './manifests.js';

// Named here rather than imported from @nodewright/kwok: the suite's entry loads no provider package.
const KWOKNodeClasses = resourceType({
  apiVersion: 'karpenter.kwok.sh/v1alpha1',
  kind: 'KWOKNodeClass',
  namespaced: false,
});

/** A NodePool's reference to the KWOKNodeClass `name`. */
export function kwokNodeClassRef(name: string): NodeClassRef {
  return { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name };
}

/** A karpenter.kwok.sh/v1alpha1 KWOKNodeClass. */
export function kwokNodeClassManifest(
  name: string,
  spec: Readonly<Record<string, unknown>> = {},
): UntypedObject {
  return {
    apiVersion: 'karpenter.kwok.sh/v1alpha1',
    kind: 'KWOKNodeClass',
    metadata: { name },
    spec: { ...spec },
  };
}

/** A KWOK NodePool: the pool's options, its class named as the pool unless `nodeClass` says. */
export interface KwokPoolOptions extends Omit<NodePoolOptions, 'nodeClassRef'> {
  /** The KWOKNodeClass the pool uses; default the pool's name. */
  readonly nodeClass?: string;
  /** When set, the class is applied too, with this spec (`{}` for the defaults). */
  readonly nodeClassSpec?: Readonly<Record<string, unknown>>;
}

/**
 * Server-side applies a KWOK NodePool (and its KWOKNodeClass when `nodeClassSpec` is given) as
 * `fieldManager`, forcing ownership: the setup most kwok tests and benchmarks begin with.
 */
export async function applyKwokPool(
  cluster: ClusterPort,
  options: KwokPoolOptions,
  fieldManager: string,
): Promise<void> {
  const { nodeClass = options.name, nodeClassSpec, ...pool } = options;
  const apply = { fieldManager, force: true };
  if (nodeClassSpec !== undefined)
    await cluster.apply(KWOKNodeClasses, kwokNodeClassManifest(nodeClass, nodeClassSpec), apply);
  await cluster.apply(
    NodePools,
    nodePoolManifest({ ...pool, nodeClassRef: kwokNodeClassRef(nodeClass) }),
    apply,
  );
}
