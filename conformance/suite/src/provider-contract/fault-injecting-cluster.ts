import {
  type ApplyOptions,
  type ClusterPort,
  type DeleteOptions,
  type DeleteResult,
  type EventInput,
  type EvictOptions,
  InternalError,
  type KubeObject,
  type MergePatch,
  type ObjectKey,
  type ObjectList,
  type PatchOptions,
  type Persisted,
  type ResourceType,
  type SelectorOptions,
  TooManyRequestsError,
  type UntypedObject,
  type Watch,
  type WatchHandler,
  type WatchOptions,
  type WriteOptions,
} from '@nodewright/core/kube';

/**
 * A ClusterPort decorator for providers whose "cloud" is the cluster (KWOK): counts the calls it
 * answers and fails the next ones on request, the way an API server under load does — 429
 * TooManyRequests (throttling) or 500 InternalError. Faulted calls never reach the cluster.
 * Watches pass through uncounted: they are streams, not calls a provider retries.
 */
export class FaultInjectingCluster implements ClusterPort {
  readonly #inner: ClusterPort;
  #calls = 0;
  #throttle = 0;
  #serverErrors = 0;

  constructor(inner: ClusterPort) {
    this.#inner = inner;
  }

  /** Calls answered so far, faulted ones included. */
  calls(): number {
    return this.#calls;
  }

  /** The next `count` calls answer 429. */
  throttle(count: number): void {
    this.#throttle += count;
  }

  /** The next `count` calls (after any throttled ones) answer 500. */
  serverErrors(count: number): void {
    this.#serverErrors += count;
  }

  get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): Promise<T> {
    return this.#call(() => this.#inner.get(type, key));
  }

  list<T extends KubeObject>(type: ResourceType<T>, options?: SelectorOptions): Promise<ObjectList<T>> {
    return this.#call(() => this.#inner.list(type, options));
  }

  watch<T extends KubeObject>(
    type: ResourceType<T>,
    handler: WatchHandler<T>,
    options?: WatchOptions,
  ): Watch {
    return this.#inner.watch(type, handler, options);
  }

  create<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    return this.#call(() => this.#inner.create(type, object, options));
  }

  update<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    return this.#call(() => this.#inner.update(type, object, options));
  }

  updateStatus<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    return this.#call(() => this.#inner.updateStatus(type, object, options));
  }

  patch<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    return this.#call(() => this.#inner.patch(type, key, patch, options));
  }

  patchStatus<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    return this.#call(() => this.#inner.patchStatus(type, key, patch, options));
  }

  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject | KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    return this.#call(() => this.#inner.apply(type, configuration as UntypedObject, options));
  }

  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject | KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    return this.#call(() => this.#inner.applyStatus(type, configuration as UntypedObject, options));
  }

  delete<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    options?: DeleteOptions,
  ): Promise<DeleteResult<T>> {
    return this.#call(() => this.#inner.delete(type, key, options));
  }

  evict(key: ObjectKey, options?: EvictOptions): Promise<void> {
    return this.#call(() => this.#inner.evict(key, options));
  }

  createEvent(event: EventInput): Promise<void> {
    return this.#call(() => this.#inner.createEvent(event));
  }

  async #call<R>(call: () => Promise<R>): Promise<R> {
    this.#calls++;
    if (this.#throttle > 0) {
      this.#throttle--;
      throw new TooManyRequestsError('injected fault: too many requests, please try again later', {
        retryAfterSeconds: 0,
      });
    }
    if (this.#serverErrors > 0) {
      this.#serverErrors--;
      throw new InternalError('injected fault: the server could not complete the request');
    }
    return call();
  }
}
