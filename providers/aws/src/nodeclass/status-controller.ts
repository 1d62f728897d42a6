import { canonicalJson } from '@nodewright/core/apis';
import type { Clock } from '@nodewright/core/clock';
import { type ClusterPort, isNotFound, type JsonObject, type ObjectKey } from '@nodewright/core/kube';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchSelf,
} from '@nodewright/core/operator';
import {
  type EC2NodeClass,
  EC2NodeClassAnnotations,
  EC2NodeClassHashVersion,
  ec2NodeClassHash,
} from '../apis/index.js';
import type { NodeClassFacts } from './facts.js';
import { EC2NodeClassResource as EC2NodeClasses, EC2NodeClassFinalizer } from './resource.js';
import { isNodeClassReady, nodeClassStatus } from './status.js';

/** How often a NodeClass is resolved again without a change (subnets and AMIs change in the cloud). */
export const NodeClassResyncMs = 5 * 60_000;

export interface EC2NodeClassStatusControllerDeps {
  readonly cluster: ClusterPort;
  readonly resolver: { resolve(nodeClass: EC2NodeClass): Promise<NodeClassFacts> };
  readonly clock: Clock;
  readonly resyncMs?: number;
}

/**
 * `ec2nodeclass.status`: resolves each EC2NodeClass's selectors (NodeClassResolver) and writes
 * `status` (subnets, security groups, AMIs, instance profile, conditions) and the
 * `karpenter.k8s.aws/ec2nodeclass-hash` (+ version) annotation when they differ from what is
 * there. Runs when a NodeClass is added or its spec or annotations change (not on its own status
 * writes) and every 5 minutes. A failed EC2 call fails the reconcile (retried with backoff) and
 * leaves the previous status in place. Before it resolves anything (which may create an instance
 * profile) it adds the `karpenter.k8s.aws/termination` finalizer, so `ec2nodeclass.termination`
 * gets to clean up what was created.
 */
export class EC2NodeClassStatusController implements Controller {
  readonly name = 'ec2nodeclass.status';
  readonly watches = [
    watchSelf<EC2NodeClass>(EC2NodeClasses, (event) => {
      if (event.type !== 'MODIFIED' || event.previous === undefined) return event.type !== 'DELETED';
      const previous = event.previous as EC2NodeClass;
      return (
        previous.metadata.generation !== event.object.metadata.generation ||
        canonicalJson(previous.metadata.annotations ?? {}) !==
          canonicalJson(event.object.metadata.annotations ?? {})
      );
    }),
  ];
  readonly #deps: EC2NodeClassStatusControllerDeps;

  constructor(deps: EC2NodeClassStatusControllerDeps) {
    this.#deps = deps;
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, resolver, clock } = this.#deps;
    let nodeClass: EC2NodeClass;
    try {
      nodeClass = await cluster.get(EC2NodeClasses, key);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (nodeClass.metadata.deletionTimestamp !== undefined) return undefined;
    const requeue = { requeueAfterMs: this.#deps.resyncMs ?? NodeClassResyncMs };

    if (!(nodeClass.metadata.finalizers ?? []).includes(EC2NodeClassFinalizer)) {
      nodeClass = await cluster.patch(
        EC2NodeClasses,
        key,
        { metadata: { finalizers: [...(nodeClass.metadata.finalizers ?? []), EC2NodeClassFinalizer] } },
        { resourceVersion: nodeClass.metadata.resourceVersion ?? '' },
      );
    }

    const hash = ec2NodeClassHash(nodeClass);
    const annotations = nodeClass.metadata.annotations ?? {};
    if (
      annotations[EC2NodeClassAnnotations.Hash] !== hash ||
      annotations[EC2NodeClassAnnotations.HashVersion] !== EC2NodeClassHashVersion
    ) {
      nodeClass = await cluster.patch(EC2NodeClasses, key, {
        metadata: {
          annotations: {
            [EC2NodeClassAnnotations.Hash]: hash,
            [EC2NodeClassAnnotations.HashVersion]: EC2NodeClassHashVersion,
          },
        },
      });
    }

    const facts = await resolver.resolve(nodeClass);
    const status = nodeClassStatus(nodeClass, facts, clock.now());
    const before = (nodeClass.status ?? {}) as Record<string, unknown>;
    if (canonicalJson(before) === canonicalJson(status)) return requeue;
    const patch = JSON.parse(JSON.stringify(status)) as JsonObject;
    // A merge patch keeps what it does not mention: clear what the new status no longer has.
    for (const field of Object.keys(before)) if (!(field in patch)) patch[field] = null;
    await cluster.patchStatus(EC2NodeClasses, key, { status: patch });
    const wasReady = isNodeClassReady(nodeClass);
    const ready = isNodeClassReady({ status });
    if (wasReady !== ready || nodeClass.status === undefined) {
      const message = status.conditions?.find((c) => c.type === 'Ready')?.message;
      context.logger.info(
        { EC2NodeClass: { name: key.name }, ready, reason: message },
        ready ? 'EC2NodeClass is ready' : 'EC2NodeClass is not ready',
      );
    }
    return requeue;
  }
}
