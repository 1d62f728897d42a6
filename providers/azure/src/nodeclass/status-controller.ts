import type { Clock } from '@nodewright/core/clock';
import {
  type ClusterPort,
  formatTime,
  isNotFound,
  type MergePatch,
  type ObjectKey,
} from '@nodewright/core/kube';
import { type Controller, type ReconcileResult, watchSelf } from '@nodewright/core/operator';
import { type AKSNodeClass, aksNodeClassSchema } from '../apis/index.js';
import { resolveImages } from './images.js';
import { AKSNodeClasses } from './reader.js';

/** Field manager of the status writes. */
export const AKSNodeClassStatusManager = 'nodewright-aksnodeclass-status';

export interface AKSNodeClassStatusControllerOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  /** The cluster's Kubernetes version (`1.33.2`). */
  readonly kubernetesVersion: string;
  /** The node image version used where the NodeClass pins none. */
  readonly nodeImageVersion: string;
  /** The subnet used where the NodeClass names none; undefined when the operator has none. */
  readonly defaultSubnetID: string | undefined;
}

type Condition = NonNullable<NonNullable<AKSNodeClass['status']>['conditions']>[number];
type Want = Pick<Condition, 'status' | 'reason' | 'message'>;

/** What the Ready condition should say: the spec valid and a subnet known. */
export function readyFor(raw: unknown, defaultSubnetID: string | undefined): Want {
  const parsed = aksNodeClassSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined ? '' : `${first.path.join('.')}: `;
    return {
      status: 'False',
      reason: 'ValidationFailed',
      message: `${where}${first?.message ?? 'invalid'}`.slice(0, 1024),
    };
  }
  if (parsed.data.spec.vnetSubnetID === undefined && defaultSubnetID === undefined) {
    return {
      status: 'False',
      reason: 'SubnetsNotReady',
      message: 'spec.vnetSubnetID is unset and the operator has no subnetID setting',
    };
  }
  return { status: 'True', reason: 'Ready', message: '' };
}

/**
 * `aksnodeclass.status`: resolves each AKSNodeClass's images (one per architecture) and
 * Kubernetes version into its status and keeps its `Ready` condition, False with the reason
 * when its spec is invalid or no subnet is known. Writes only what changed.
 */
export class AKSNodeClassStatusController implements Controller {
  readonly name = 'aksnodeclass.status';
  readonly watches = [watchSelf(AKSNodeClasses)];

  constructor(private readonly o: AKSNodeClassStatusControllerOptions) {}

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    let raw: AKSNodeClass;
    try {
      raw = await this.o.cluster.get(AKSNodeClasses, { name: key.name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (raw.metadata.deletionTimestamp !== undefined) return undefined;
    const want = readyFor(raw, this.o.defaultSubnetID);
    const parsed = aksNodeClassSchema.safeParse(raw);
    const images = parsed.success ? resolveImages(parsed.data, this.o.nodeImageVersion) : [];
    const conditions = raw.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Ready');
    const generation = raw.metadata.generation;
    const same =
      current?.status === want.status &&
      current.reason === want.reason &&
      current.message === want.message &&
      current.observedGeneration === generation &&
      JSON.stringify(raw.status?.images ?? []) === JSON.stringify(images) &&
      raw.status?.kubernetesVersion === this.o.kubernetesVersion;
    if (same) return undefined;
    const ready: Condition = {
      type: 'Ready',
      ...want,
      lastTransitionTime:
        current !== undefined && current.status === want.status
          ? current.lastTransitionTime
          : formatTime(this.o.clock.now()),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
    await this.o.cluster.patchStatus(
      AKSNodeClasses,
      { name: key.name },
      {
        status: {
          images,
          kubernetesVersion: this.o.kubernetesVersion,
          conditions: [...conditions.filter((c) => c.type !== 'Ready'), ready],
        },
      } as unknown as MergePatch,
      { fieldManager: AKSNodeClassStatusManager },
    );
    return undefined;
  }
}
