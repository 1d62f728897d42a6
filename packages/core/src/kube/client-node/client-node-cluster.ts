import type { KubeConfig } from '@kubernetes/client-node';
import { type BackoffPolicy, WatchBackoff } from '../../clock/backoff.js';
import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import { BadRequestError, isGone, isNotFound } from '../errors.js';
import { EventAggregator, type EventInput } from '../event.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { formatLabelSelector } from '../label-selector.js';
import type { MergePatch } from '../merge-patch.js';
import {
  DEFAULT_NAMESPACE,
  type KubeObject,
  type ObjectKey,
  type Persisted,
  type UntypedObject,
} from '../object.js';
import type {
  ApplyOptions,
  ClusterPort,
  DeleteOptions,
  DeleteResult,
  EvictOptions,
  ObjectList,
  PatchOptions,
  SelectorOptions,
  WriteOptions,
} from '../port.js';
import type { ResourceType } from '../resource-type.js';
import { Events, Pods } from '../resource-types.js';
import type { Watch, WatchHandler, WatchOptions } from '../watch.js';
import { withoutManagedFields } from '../without-managed-fields.js';
import { ClientNodeTransport } from './client-node-transport.js';
import { readDeleteResponse } from './delete-response.js';
import type { KubeLogger } from './logger.js';
import { Reflector, type WatchSource } from './reflector.js';
import {
  DefaultKubeRequestTimeouts,
  type KubeRequestTimeouts,
  withRequestDeadline,
} from './request-deadline.js';
import { collectionPath, objectPath, type QueryParams } from './resource-path.js';
import { errorFromResponse } from './response-errors.js';
import type { KubeRequest, KubeTransport } from './transport.js';

/** How watches talk to the server. */
export interface WatchTuning {
  /**
   * Server-side lifetime of one watch connection (`timeoutSeconds`). Default 25: below
   * client-node's 30 s idle abort, so a quiet watch is closed by the server, which sends a
   * bookmark just before, and the resume point stays fresh.
   */
  readonly timeoutSeconds: number;
  /** Lifetime of the connections of a resumed watch that has not synced yet. Default 3. */
  readonly syncProbeSeconds: number;
  /** Delays between retries after errors. */
  readonly backoff: BackoffPolicy;
}

/** Everything a ClientNodeCluster depends on. */
export interface ClientNodeClusterOptions {
  /** Where the API server is and how to authenticate (`loadFromFile`, `loadFromDefault`, ...). */
  readonly kubeConfig: KubeConfig;
  /** Recorded in managedFields for writes that name no field manager; also the User-Agent. */
  readonly fieldManager: string;
  readonly logger: KubeLogger;
  /** Stamps events (firstTimestamp/lastTimestamp) and measures watch connections. */
  readonly clock: Clock;
  /** Schedules watch retries. */
  readonly timers: Timers;
  readonly watch?: Partial<WatchTuning>;
  /** Items per list page; lists follow `continue` until complete. Default 500. */
  readonly listPageSize?: number;
  /** Deadlines of requests and list pages; default DefaultKubeRequestTimeouts (30 s, 60 s). */
  readonly requestTimeouts?: Partial<KubeRequestTimeouts>;
  /** Replaces the HTTP layer built from `kubeConfig` (tests). */
  readonly transport?: KubeTransport;
}

const DEFAULT_WATCH: WatchTuning = Object.freeze({
  timeoutSeconds: 25,
  syncProbeSeconds: 3,
  backoff: WatchBackoff,
});
const MERGE_PATCH = 'application/merge-patch+json';
const APPLY_PATCH = 'application/apply-patch+yaml';
/** Restarts of a paginated list whose continue token expired mid-way. */
const LIST_RESTARTS = 3;

interface ListResponse {
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items?: KubeObject[];
}

/**
 * ClusterPort on a real API server, through @kubernetes/client-node 2.x: plain REST calls
 * whose URLs come from the ResourceType (so any kind works, CRDs included, with no discovery),
 * authenticated by the KubeConfig. Answers and failures are the server's own; failures are
 * KubeErrors built from its Status bodies.
 *
 * - patch/patchStatus send `application/merge-patch+json`; apply/applyStatus send
 *   `application/apply-patch+yaml` with `fieldManager` and `force`.
 * - evict POSTs a policy/v1 Eviction to `pods/<name>/eviction`.
 * - createEvent aggregates identical events client-side (EventAggregator), as client-go does.
 * - watch is a reflector (see Reflector): list, ADDED for current objects, then changes,
 *   resuming after every reconnect and relisting on 410.
 * - delete reports an immediately deleted object by identity only (apiVersion, kind, name,
 *   namespace, uid) when the server answers with a Status rather than the object.
 */
export class ClientNodeCluster implements ClusterPort {
  readonly #transport: KubeTransport;
  readonly #manager: string;
  readonly #logger: KubeLogger;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #watch: WatchTuning;
  readonly #pageSize: number;
  readonly #timeouts: KubeRequestTimeouts;
  readonly #events = new EventAggregator();
  readonly #watches = new Set<Watch>();

  constructor(options: ClientNodeClusterOptions) {
    if (options.fieldManager === '') throw new Error('ClientNodeCluster needs a field manager name');
    this.#transport = options.transport ?? new ClientNodeTransport(options.kubeConfig, options.fieldManager);
    this.#manager = options.fieldManager;
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#timers = options.timers;
    this.#watch = { ...DEFAULT_WATCH, ...options.watch };
    this.#pageSize = options.listPageSize ?? 500;
    this.#timeouts = { ...DefaultKubeRequestTimeouts, ...options.requestTimeouts };
  }

  /** Stops every watch this adapter started, e.g. at shutdown. */
  close(): void {
    for (const watch of [...this.#watches]) watch.stop();
  }

  async get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): Promise<T> {
    const name = requireName(key.name);
    const object = await this.#call<KubeObject>(
      { method: 'GET', path: objectPath(type, name, key.namespace) },
      `get ${describeObject(type, name, key.namespace)}`,
    );
    return withTypeMeta(type, object) as T;
  }

  async list<T extends KubeObject>(type: ResourceType<T>, options?: SelectorOptions): Promise<ObjectList<T>> {
    const listed = await this.#listAll(type, options);
    return { items: listed.items as T[], resourceVersion: listed.resourceVersion };
  }

  watch<T extends KubeObject>(
    type: ResourceType<T>,
    handler: WatchHandler<T>,
    options?: WatchOptions,
  ): Watch {
    const source = this.#watchSource(type, options);
    const informer = new Reflector(source, handler as WatchHandler, {
      clock: this.#clock,
      timers: this.#timers,
      logger: this.#logger,
      backoff: this.#watch.backoff,
      timeoutSeconds: this.#watch.timeoutSeconds,
      syncProbeSeconds: this.#watch.syncProbeSeconds,
      description: describeWatch(type, options),
      ...(options?.resourceVersion === undefined ? {} : { resourceVersion: options.resourceVersion }),
    });
    const watches = this.#watches;
    const tracked: Watch = {
      synced: informer.synced,
      hasSynced: () => informer.hasSynced(),
      resourceVersion: () => informer.resourceVersion(),
      stop: () => {
        watches.delete(tracked);
        informer.stop();
      },
    };
    watches.add(tracked);
    // An informer that ended by itself (ERROR) no longer needs stopping at close().
    informer.synced.then(undefined, () => watches.delete(tracked));
    return tracked;
  }

  async create<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    const namespace = type.namespaced ? object.metadata?.namespace || DEFAULT_NAMESPACE : undefined;
    const created = await this.#call<KubeObject>(
      {
        method: 'POST',
        path: collectionPath(type, namespace),
        query: { fieldManager: options?.fieldManager ?? this.#manager },
        body: object,
      },
      `create ${describeObject(type, object.metadata?.name ?? object.metadata?.generateName ?? '', namespace)}`,
    );
    return withTypeMeta(type, created) as Persisted<O>;
  }

  async update<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    return (await this.#put(type, object, options, undefined)) as Persisted<O>;
  }

  async updateStatus<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    return (await this.#put(type, object, options, 'status')) as Persisted<O>;
  }

  async patch<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    return (await this.#mergePatch(type, key, patch, options, undefined)) as T;
  }

  async patchStatus<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    return (await this.#mergePatch(type, key, patch, options, 'status')) as T;
  }

  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;
  async apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    return (await this.#apply(type, configuration, options, undefined)) as T;
  }

  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;
  async applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    return (await this.#apply(type, configuration, options, 'status')) as T;
  }

  async delete<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    options?: DeleteOptions,
  ): Promise<DeleteResult<T>> {
    const name = requireName(key.name);
    const body = await this.#call<unknown>(
      { method: 'DELETE', path: objectPath(type, name, key.namespace), body: deleteOptionsBody(options) },
      `delete ${describeObject(type, name, key.namespace)}`,
    );
    const result = readDeleteResponse(type, key, body);
    return { deleted: result.deleted, object: withTypeMeta(type, result.object) as T };
  }

  async evict(key: ObjectKey, options?: EvictOptions): Promise<void> {
    const name = requireName(key.name);
    const namespace = key.namespace || DEFAULT_NAMESPACE;
    await this.#call<unknown>(
      {
        method: 'POST',
        path: objectPath(Pods, name, namespace, 'eviction'),
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name, namespace },
          ...(options?.deleteOptions === undefined
            ? {}
            : { deleteOptions: deleteOptionsBody(options.deleteOptions) }),
        },
      },
      `evict ${describeObject(Pods, name, namespace)}`,
    );
  }

  async createEvent(event: EventInput): Promise<void> {
    const fieldManager = event.source?.component || this.#manager;
    const decision = this.#events.observe(event, this.#clock.now());
    if (decision.kind === 'create') {
      await this.create(Events, decision.event, { fieldManager });
      return;
    }
    try {
      await this.patch(
        Events,
        decision.key,
        { count: decision.count, lastTimestamp: decision.lastTimestamp },
        { fieldManager },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // The aggregated event is gone (deleted, or expired by the server's event TTL): start anew.
      this.#events.forget(event);
      const again = this.#events.observe(event, this.#clock.now());
      if (again.kind === 'create') await this.create(Events, again.event, { fieldManager });
    }
  }

  // Internals

  /** One request, abandoned after its deadline with an error naming `what` (verb and resource). */
  async #call<T>(request: KubeRequest, what: string, deadlineMs = this.#timeouts.requestMs): Promise<T> {
    const response = await withRequestDeadline(this.#timers, deadlineMs, what, request.signal, (signal) =>
      this.#transport.request({ ...request, signal }),
    );
    if (response.status >= 200 && response.status < 300) return response.body as T;
    throw errorFromResponse(response.status, response.body);
  }

  async #put(
    type: ResourceType,
    object: KubeObject,
    options: WriteOptions | undefined,
    subresource: 'status' | undefined,
  ): Promise<KubeObject> {
    const meta = requireMetadata(object);
    const name = requireName(meta.name);
    const updated = await this.#call<KubeObject>(
      {
        method: 'PUT',
        path: objectPath(type, name, meta.namespace, subresource),
        query: { fieldManager: options?.fieldManager ?? this.#manager },
        body: object,
      },
      `update ${describeObject(type, name, meta.namespace, subresource)}`,
    );
    return withTypeMeta(type, updated);
  }

  async #mergePatch(
    type: ResourceType,
    key: ObjectKey,
    patch: MergePatch,
    options: PatchOptions | undefined,
    subresource: 'status' | undefined,
  ): Promise<KubeObject> {
    if (!isJsonObject(patch)) throw new BadRequestError('a merge patch must be a JSON object');
    const name = requireName(key.name);
    const patched = await this.#call<KubeObject>(
      {
        method: 'PATCH',
        path: objectPath(type, name, key.namespace, subresource),
        query: { fieldManager: options?.fieldManager ?? this.#manager },
        body: withPrecondition(patch, options?.resourceVersion),
        contentType: MERGE_PATCH,
      },
      `patch ${describeObject(type, name, key.namespace, subresource)}`,
    );
    return withTypeMeta(type, patched);
  }

  async #apply(
    type: ResourceType,
    configuration: KubeObject,
    options: ApplyOptions,
    subresource: 'status' | undefined,
  ): Promise<KubeObject> {
    const meta = isJsonObject(configuration.metadata) ? configuration.metadata : undefined;
    if (typeof meta?.name !== 'string' || meta.name === '')
      throw new BadRequestError('metadata.name is required');
    const namespace = typeof meta.namespace === 'string' ? meta.namespace : undefined;
    const applied = await this.#call<KubeObject>(
      {
        method: 'PATCH',
        path: objectPath(type, meta.name, namespace, subresource),
        query: { fieldManager: options.fieldManager, ...(options.force === true ? { force: true } : {}) },
        body: configuration,
        contentType: APPLY_PATCH,
      },
      `apply ${describeObject(type, meta.name, namespace, subresource)}`,
    );
    return withTypeMeta(type, applied);
  }

  /** Every page of a list, restarted when a continue token expires mid-way. */
  async #listAll(
    type: ResourceType,
    options: SelectorOptions | undefined,
    signal?: AbortSignal,
  ): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const selectors = selectorQuery(options);
    const path = collectionPath(type, options?.namespace);
    for (let restart = 0; ; restart++) {
      const items: KubeObject[] = [];
      let resourceVersion = '';
      let token: string | undefined;
      try {
        do {
          const page: ListResponse = await this.#call<ListResponse>(
            {
              method: 'GET',
              path,
              query: { ...selectors, limit: this.#pageSize, continue: token },
              ...(signal === undefined ? {} : { signal }),
            },
            `list ${type.plural}${type.namespaced && options?.namespace ? ` in namespace ${options.namespace}` : ''}`,
            this.#timeouts.listMs,
          );
          if (token === undefined) resourceVersion = page.metadata?.resourceVersion ?? '';
          for (const item of page.items ?? []) items.push(withTypeMeta(type, item));
          token = page.metadata?.continue || undefined;
        } while (token !== undefined);
      } catch (err) {
        if (token !== undefined && isGone(err) && restart < LIST_RESTARTS) continue;
        throw err;
      }
      return { items: sortObjects(items), resourceVersion };
    }
  }

  #watchSource(type: ResourceType, options: WatchOptions | undefined): WatchSource {
    let selectors: QueryParams;
    try {
      selectors = selectorQuery(options);
    } catch (err) {
      const fail = () => Promise.reject(err);
      return { list: fail, stream: fail };
    }
    const path = collectionPath(type, options?.namespace);
    // Applied before the informer sees an object, so its relist bookkeeping holds none either.
    const shape = options?.withoutManagedFields
      ? (object: KubeObject) => withoutManagedFields(withTypeMeta(type, object))
      : (object: KubeObject) => withTypeMeta(type, object);
    return {
      list: async (signal) => {
        const listed = await this.#listAll(type, options, signal);
        return options?.withoutManagedFields
          ? { items: listed.items.map(withoutManagedFields), resourceVersion: listed.resourceVersion }
          : listed;
      },
      stream: (resourceVersion, timeoutSeconds, onEvent, signal) =>
        this.#transport.watch(
          path,
          { ...selectors, resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
          (event) =>
            onEvent(event.type === 'BOOKMARK' ? event : { type: event.type, object: shape(event.object) }),
          signal,
        ),
    };
  }
}

/** `nodeclaims default-x8k2p`, `pods/status kube-system/web-0`: the resource an error names. */
function describeObject(
  type: ResourceType,
  name: string,
  namespace: string | undefined,
  subresource?: string,
): string {
  const resource = subresource === undefined ? type.plural : `${type.plural}/${subresource}`;
  const ns = type.namespaced ? namespace || DEFAULT_NAMESPACE : undefined;
  return `${resource} ${ns === undefined ? '' : `${ns}/`}${name}`;
}

function requireName(name: string | undefined): string {
  if (name === undefined || name === '') throw new BadRequestError('resource name may not be empty');
  return name;
}

function requireMetadata(object: KubeObject): KubeObject['metadata'] {
  if (!isJsonObject(object.metadata)) throw new BadRequestError('metadata is required');
  return object.metadata;
}

/** List items come without apiVersion and kind; every result carries them, as in memory. */
function withTypeMeta(type: ResourceType, object: KubeObject): KubeObject {
  if (object.apiVersion === type.apiVersion && object.kind === type.kind) return object;
  return { ...object, apiVersion: type.apiVersion, kind: type.kind };
}

/** A merge patch that also asserts the object's version (the server checks metadata.resourceVersion). */
function withPrecondition(patch: MergePatch, resourceVersion: string | undefined): MergePatch {
  if (resourceVersion === undefined) return patch;
  const metadata = isJsonObject(patch.metadata) ? patch.metadata : {};
  return { ...patch, metadata: { ...metadata, resourceVersion } };
}

function deleteOptionsBody(options: DeleteOptions | undefined): JsonObject {
  const body: JsonObject = { apiVersion: 'v1', kind: 'DeleteOptions' };
  if (options?.preconditions !== undefined) {
    const preconditions: JsonObject = {};
    if (options.preconditions.uid !== undefined) preconditions.uid = options.preconditions.uid;
    if (options.preconditions.resourceVersion !== undefined)
      preconditions.resourceVersion = options.preconditions.resourceVersion;
    body.preconditions = preconditions;
  }
  if (options?.propagationPolicy !== undefined) body.propagationPolicy = options.propagationPolicy;
  if (options?.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
  return body;
}

/** Label and field selectors as query parameters; structured label selectors are rendered. */
function selectorQuery(options: SelectorOptions | undefined): QueryParams {
  const label = options?.labelSelector;
  let labelSelector: string | undefined;
  try {
    labelSelector = label === undefined || typeof label === 'string' ? label : formatLabelSelector(label);
  } catch (err) {
    throw new BadRequestError(`invalid label selector: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    ...(labelSelector === undefined || labelSelector === '' ? {} : { labelSelector }),
    ...(options?.fieldSelector === undefined || options.fieldSelector === ''
      ? {}
      : { fieldSelector: options.fieldSelector }),
  };
}

function describeWatch(type: ResourceType, options: WatchOptions | undefined): string {
  const parts = [`${type.apiVersion}/${type.kind}`];
  if (type.namespaced && options?.namespace) parts.push(`namespace=${options.namespace}`);
  if (options?.labelSelector !== undefined) parts.push(`labels=${JSON.stringify(options.labelSelector)}`);
  if (options?.fieldSelector) parts.push(`fields=${options.fieldSelector}`);
  return parts.join(' ');
}

/** By namespace, then name: the order the port promises (and etcd's key order nearly is). */
function sortObjects(objects: KubeObject[]): KubeObject[] {
  return objects.sort((a, b) => {
    const na = a.metadata.namespace ?? '';
    const nb = b.metadata.namespace ?? '';
    if (na !== nb) return na < nb ? -1 : 1;
    const ma = a.metadata.name ?? '';
    const mb = b.metadata.name ?? '';
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
}
