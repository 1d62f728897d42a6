import type { NodeClaim } from '@nodewright/core/apis';
import { nodeClaimKind } from '@nodewright/core/apis';
import {
  type ClusterPort,
  isNotFound,
  type ObjectKey,
  type ResourceType,
  resourceTypeOf,
} from '@nodewright/core/kube';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '@nodewright/core/operator';
import { type EC2NodeClass, EC2NodeClassGroup, ec2NodeClassKind } from '../apis/index.js';
import { EC2NodeClassResource as EC2NodeClasses, EC2NodeClassFinalizer } from './resource.js';

const NodeClaims: ResourceType<NodeClaim> = resourceTypeOf<NodeClaim>(nodeClaimKind);

/** How often a deleting NodeClass looks again while NodeClaims still use it. */
export const NodeClaimWaitMs = 10_000;

export interface EC2NodeClassTerminationControllerDeps {
  readonly cluster: ClusterPort;
  /** Deletes the instance profile created for a role (InstanceProfiles.delete); says what it did. */
  readonly instanceProfiles: { delete(nodeClass: EC2NodeClass): Promise<string> };
  /** Deletes the NodeClass's launch templates; the names deleted. */
  readonly launchTemplates: { deleteFor(nodeClassName: string): Promise<string[]> };
}

/** The EC2NodeClass a NodeClaim launched from, if any. */
function nodeClassOf(claim: NodeClaim): string | undefined {
  const ref = claim.spec?.nodeClassRef;
  return ref?.group === EC2NodeClassGroup && ref.kind === ec2NodeClassKind.kind ? ref.name : undefined;
}

/**
 * `ec2nodeclass.termination`: once an EC2NodeClass holding the `karpenter.k8s.aws/termination`
 * finalizer is being deleted, waits until no NodeClaim uses it (their nodes still need the
 * instance profile's credentials), then deletes the instance profile made for its role and its
 * launch templates, and removes the finalizer. An IAM or EC2 failure fails the reconcile
 * (retried with backoff) and keeps the finalizer.
 */
export class EC2NodeClassTerminationController implements Controller {
  readonly name = 'ec2nodeclass.termination';
  readonly watches = [
    watchSelf<EC2NodeClass>(
      EC2NodeClasses,
      (event) => event.type !== 'DELETED' && event.object.metadata.deletionTimestamp !== undefined,
    ),
    watchMapped<NodeClaim>(NodeClaims, (claim, _cache, event) => {
      const name = nodeClassOf(claim);
      return event.type === 'DELETED' && name !== undefined ? [{ name }] : [];
    }),
  ];
  readonly #deps: EC2NodeClassTerminationControllerDeps;

  constructor(deps: EC2NodeClassTerminationControllerDeps) {
    this.#deps = deps;
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster } = this.#deps;
    let nodeClass: EC2NodeClass;
    try {
      nodeClass = await cluster.get(EC2NodeClasses, key);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (nodeClass.metadata.deletionTimestamp === undefined) return undefined;
    const finalizers = nodeClass.metadata.finalizers ?? [];
    if (!finalizers.includes(EC2NodeClassFinalizer)) return undefined;
    const ref = { EC2NodeClass: { name: key.name } };

    const claims = (await cluster.list(NodeClaims)).items.filter((c) => nodeClassOf(c) === key.name);
    if (claims.length > 0) {
      const names = claims.map((c) => c.metadata.name ?? '').sort();
      context.logger.info(
        { ...ref, reason: `waiting on NodeClaim termination for ${names.join(', ')}` },
        'EC2NodeClass deletion waits',
      );
      return { requeueAfterMs: NodeClaimWaitMs };
    }

    const profile = await this.#deps.instanceProfiles.delete(nodeClass);
    const templates = await this.#deps.launchTemplates.deleteFor(key.name);
    try {
      await cluster.patch(
        EC2NodeClasses,
        key,
        { metadata: { finalizers: finalizers.filter((f) => f !== EC2NodeClassFinalizer) } },
        { resourceVersion: nodeClass.metadata.resourceVersion ?? '' },
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    context.logger.info(
      { ...ref, instanceProfile: profile, launchTemplates: templates },
      'EC2NodeClass cleaned up; finalizer removed',
    );
    return undefined;
  }
}
