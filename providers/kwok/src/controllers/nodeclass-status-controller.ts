import type { Clock } from '@nodewright/core/clock';
import {
  type ClusterPort,
  formatTime,
  isNotFound,
  type MergePatch,
  type ObjectKey,
} from '@nodewright/core/kube';
import { type Controller, type ReconcileResult, watchSelf } from '@nodewright/core/operator';
import { KWOKNodeClassAnnotations, KWOKNodeClassHashVersion, kwokNodeClassHash } from '../apis/hash.js';
import { type KWOKNodeClass, kwokNodeClassSchema } from '../apis/kwoknodeclass.js';
import { KWOKNodeClasses } from '../apis/resource-type.js';

export interface KwokNodeClassStatusControllerOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
}

/** Field manager of the status and hash writes. */
export const KwokNodeClassStatusManager = 'nodewright-kwoknodeclass-status';

type Condition = NonNullable<NonNullable<KWOKNodeClass['status']>['conditions']>[number];

/** What the Ready condition of a KWOKNodeClass should say, from its (raw) object. */
export function readyConditionFor(raw: unknown): Pick<Condition, 'status' | 'reason' | 'message'> {
  const parsed = kwokNodeClassSchema.safeParse(raw);
  if (parsed.success) return { status: 'True', reason: 'Ready', message: '' };
  const first = parsed.error.issues[0];
  const where = first === undefined ? '' : `${first.path.join('.')}: `;
  return {
    status: 'False',
    reason: 'InvalidSpec',
    message: `${where}${first?.message ?? 'invalid'}`.slice(0, 1024),
  };
}

/**
 * `kwoknodeclass.status`: keeps each KWOKNodeClass's `Ready` condition (True unless its spec
 * fails the schema; KWOK resolves nothing in a cloud) and its hash annotation, which NodeClaims
 * are compared against for drift. Writes only what changed, so its own updates settle.
 */
export class KwokNodeClassStatusController implements Controller {
  readonly name = 'kwoknodeclass.status';
  readonly watches = [watchSelf(KWOKNodeClasses)];
  readonly #o: KwokNodeClassStatusControllerOptions;

  constructor(options: KwokNodeClassStatusControllerOptions) {
    this.#o = options;
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    let nodeClass: KWOKNodeClass;
    try {
      nodeClass = await this.#o.cluster.get(KWOKNodeClasses, { name: key.name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (nodeClass.metadata.deletionTimestamp !== undefined) return undefined;
    const want = readyConditionFor(nodeClass);
    if (want.status === 'True') {
      const hash = kwokNodeClassHash(kwokNodeClassSchema.parse(nodeClass));
      const annotations = nodeClass.metadata.annotations ?? {};
      if (
        annotations[KWOKNodeClassAnnotations.Hash] !== hash ||
        annotations[KWOKNodeClassAnnotations.HashVersion] !== KWOKNodeClassHashVersion
      ) {
        nodeClass = await this.#o.cluster.patch(
          KWOKNodeClasses,
          { name: key.name },
          {
            metadata: {
              annotations: {
                [KWOKNodeClassAnnotations.Hash]: hash,
                [KWOKNodeClassAnnotations.HashVersion]: KWOKNodeClassHashVersion,
              },
            },
          },
          { fieldManager: KwokNodeClassStatusManager },
        );
      }
    }
    const conditions = nodeClass.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Ready');
    const generation = nodeClass.metadata.generation;
    if (
      current?.status === want.status &&
      current.reason === want.reason &&
      current.message === want.message &&
      current.observedGeneration === generation
    ) {
      return undefined;
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
      KWOKNodeClasses,
      { name: key.name },
      // Conditions are plain JSON; the zod output type only widens `reason` to optional.
      {
        status: { conditions: [...conditions.filter((c) => c.type !== 'Ready'), ready] },
      } as unknown as MergePatch,
      { fieldManager: KwokNodeClassStatusManager },
    );
    return undefined;
  }
}
