import { Labels } from '@nodewright/core/apis';
import type { Clock } from '@nodewright/core/clock';
import {
  type ClusterPort,
  formatTime,
  isNotFound,
  type MergePatch,
  type ObjectKey,
} from '@nodewright/core/kube';
import { type Controller, type ReconcileResult, watchSelf } from '@nodewright/core/operator';
import { type GCENodeClass, gceNodeClassSchema } from '../apis/index.js';
import { GCENodeClasses } from '../provider/nodeclass-reader.js';
import { type GceComputeApi, isGceNotFound } from '../sdk/compute-api.js';
import { imageQueries } from './images.js';

/** Field manager of the status writes. */
export const GceNodeClassStatusManager = 'nodewright-gcenodeclass-status';
/** Images are resolved again this often (a family's newest image changes with releases). */
export const ImagesRefreshMs = 60 * 60_000;

type Status = NonNullable<GCENodeClass['status']>;
type Condition = NonNullable<Status['conditions']>[number];
type ResolvedImage = NonNullable<Status['images']>[number];

const archOf = (gce: string | null | undefined) =>
  gce === 'ARM64' ? 'arm64' : gce === 'X86_64' ? 'amd64' : undefined;

/**
 * Resolves the NodeClass's image selector terms to images: each family's newest non-deprecated
 * image (images.getFromFamily), each id by images.get; an image's requirements carry its arch.
 * Terms that resolve to nothing are skipped; undefined images means none resolved.
 */
export async function resolveImages(
  compute: Pick<GceComputeApi, 'getImage' | 'getImageFromFamily'>,
  nodeClass: GCENodeClass,
  project: string,
): Promise<ResolvedImage[]> {
  const out: ResolvedImage[] = [];
  for (const term of nodeClass.spec.imageSelectorTerms) {
    for (const q of imageQueries(term, project)) {
      try {
        const image =
          q.family !== undefined
            ? await compute.getImageFromFamily(q.project, q.family)
            : await compute.getImage(q.project, q.name ?? '');
        if (image.deprecated?.state) continue;
        const arch = q.arch ?? archOf(image.architecture);
        const sourceImage = `projects/${q.project}/global/images/${image.name ?? ''}`;
        if (out.some((i) => i.sourceImage === sourceImage)) continue;
        out.push({
          sourceImage,
          requirements: arch === undefined ? [] : [{ key: Labels.Arch, operator: 'In', values: [arch] }],
        });
      } catch (err) {
        if (!isGceNotFound(err)) throw err;
      }
    }
  }
  return out;
}

export interface GceNodeClassStatusControllerOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly compute: Pick<GceComputeApi, 'getImage' | 'getImageFromFamily'>;
  readonly project: string;
}

/**
 * `gcenodeclass.status`: resolves each GCENodeClass's images into `status.images` and sets Ready
 * (True with at least one image, False with the reason otherwise), hourly and on every change.
 * Writes only what changed.
 */
export class GceNodeClassStatusController implements Controller {
  readonly name = 'gcenodeclass.status';
  readonly watches = [watchSelf(GCENodeClasses)];
  readonly #o: GceNodeClassStatusControllerOptions;

  constructor(options: GceNodeClassStatusControllerOptions) {
    this.#o = options;
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    let raw: GCENodeClass;
    try {
      raw = await this.#o.cluster.get(GCENodeClasses, { name: key.name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (raw.metadata.deletionTimestamp !== undefined) return undefined;
    const parsed = gceNodeClassSchema.safeParse(raw);
    let images: ResolvedImage[] = [];
    let want: Pick<Condition, 'status' | 'reason' | 'message'>;
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      want = {
        status: 'False',
        reason: 'InvalidSpec',
        message: `${first?.path.join('.') ?? ''}: ${first?.message ?? 'invalid'}`,
      };
    } else {
      images = await resolveImages(this.#o.compute, parsed.data, this.#o.project);
      want =
        images.length > 0
          ? { status: 'True', reason: 'Ready', message: '' }
          : {
              status: 'False',
              reason: 'ImagesNotFound',
              message: 'no image selector term resolved to an image',
            };
    }
    const conditions = raw.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Ready');
    const generation = raw.metadata.generation;
    const sameImages = JSON.stringify(raw.status?.images ?? []) === JSON.stringify(images);
    if (
      sameImages &&
      current?.status === want.status &&
      current.reason === want.reason &&
      current.message === want.message &&
      current.observedGeneration === generation
    ) {
      return { requeueAfterMs: ImagesRefreshMs };
    }
    const ready: Condition = {
      type: 'Ready',
      ...want,
      lastTransitionTime:
        current !== undefined && current.status === want.status
          ? current.lastTransitionTime
          : formatTime(this.#o.clock.now()),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
    await this.#o.cluster.patchStatus(
      GCENodeClasses,
      { name: key.name },
      {
        status: { images, conditions: [...conditions.filter((c) => c.type !== 'Ready'), ready] },
      } as unknown as MergePatch,
      { fieldManager: GceNodeClassStatusManager },
    );
    return { requeueAfterMs: ImagesRefreshMs };
  }
}
