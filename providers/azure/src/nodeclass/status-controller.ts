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
import { ImageResolutionError } from './image-resolver.js';
import type { ResolvedImage } from './images.js';
import { AKSNodeClasses } from './reader.js';

/** Status is resolved again this often, so a newly published node image reaches the NodeClass. */
export const StatusRefreshMs = 5 * 60_000;
/** A NodeClass whose images did not resolve is tried again after this long. */
export const ImagesRetryMs = 60_000;

/** Field manager of the status writes. */
export const AKSNodeClassStatusManager = 'nodewright-aksnodeclass-status';

export interface AKSNodeClassStatusControllerOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  /** The cluster's Kubernetes version (`1.33.2`). */
  readonly kubernetesVersion: string;
  /** Resolves a NodeClass's images (a {@link NodeImageResolver} in the provider). */
  readonly images: { resolve(nodeClass: AKSNodeClass): Promise<ResolvedImage[]> };
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
 * `aksnodeclass.status`: resolves each AKSNodeClass's images (one per architecture, from AKS's
 * community galleries) and Kubernetes version into its status and keeps its `Ready` condition,
 * False with the reason when its spec is invalid, no subnet is known or its images do not
 * resolve (`ImagesNotReady`; the images last resolved are kept). Writes only what changed;
 * resolves again every {@link StatusRefreshMs}.
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
    let want = readyFor(raw, this.o.defaultSubnetID);
    const parsed = aksNodeClassSchema.safeParse(raw);
    let images: ResolvedImage[] = [];
    let requeueAfterMs = StatusRefreshMs;
    if (parsed.success) {
      try {
        images = await this.o.images.resolve(parsed.data);
      } catch (err) {
        if (!(err instanceof ImageResolutionError)) throw err;
        images = (raw.status?.images ?? []) as ResolvedImage[];
        requeueAfterMs = ImagesRetryMs;
        if (want.status === 'True')
          want = { status: 'False', reason: 'ImagesNotReady', message: err.message };
      }
    }
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
    if (same) return { requeueAfterMs };
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
    return { requeueAfterMs };
  }
}
