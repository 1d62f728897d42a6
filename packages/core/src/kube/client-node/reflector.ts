import { type BackoffPolicy, backoffDelay } from '../../clock/backoff.js';
import type { Clock } from '../../clock/clock.js';
import { DefaultSliceMs, type Defer, deferToEventLoop, timeSlices } from '../../clock/slices.js';
import type { Timers } from '../../clock/timers.js';
import { sleep } from '../../clock/timers.js';
import { isGone, type KubeError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { Watch, WatchEvent, WatchHandler } from '../watch.js';
import type { KubeLogger } from './logger.js';
import { UnreachableError } from './response-errors.js';
import type { StreamEvent } from './transport.js';

/** The API calls behind one reflector: a kind with its selectors already applied. */
export interface WatchSource {
  /** A complete, consistent listing (every page) and the resourceVersion it is at. */
  list(signal: AbortSignal): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  /**
   * One watch connection starting after `resourceVersion`, closed by the server after
   * `timeoutSeconds`; see KubeTransport.watch.
   */
  stream(
    resourceVersion: string,
    timeoutSeconds: number,
    onEvent: (event: StreamEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

/** Tuning of a reflector. */
export interface ReflectorOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: KubeLogger;
  readonly backoff: BackoffPolicy;
  /** Draws the backoff's jitter (0 <= r < 1); default Math.random. */
  readonly random?: () => number;
  /** Server-side lifetime of a watch connection. */
  readonly timeoutSeconds: number;
  /**
   * Lifetime of connections made while a resumed watch has not synced. Kept short because the
   * API server sends its bookmark two seconds before a connection's deadline, and that bookmark
   * is what proves the backlog has been delivered.
   */
  readonly syncProbeSeconds: number;
  /** Resume point; unset (or `"0"`) lists first. */
  readonly resourceVersion?: string;
  /** For log lines: which kind and selectors this is. */
  readonly description: string;
  /**
   * Longest stretch of handler calls before the event loop gets a turn; default 20 ms. A relist
   * delivers every object at once (20,000 Pods: 20,000 handler calls), and without turns in
   * between nothing else (a Lease renewal, a probe) runs until the last of them.
   */
  readonly sliceMs?: number;
  /** Monotonic milliseconds for the slices; default `performance.now`. */
  readonly elapsedMs?: () => number;
  /** How delivery gives the event loop a turn; default `setImmediate`. */
  readonly defer?: Defer;
}

/** A clean close sooner than this, with nothing delivered, counts as a failure. */
const INSTANT_CLOSE_MS = 250;

type QueueItem =
  | { readonly kind: 'event'; readonly event: WatchEvent; readonly rv?: string }
  | { readonly kind: 'progress'; readonly rv: string }
  | { readonly kind: 'sync'; readonly rv: string };

/**
 * Request errors a retry cannot fix. Everything else (network failures, 5xx, 429, 401/403,
 * a kind not served yet because its CRD is still being established) is retried with backoff.
 */
function isPermanent(err: KubeError): boolean {
  return err.code === 400 || err.code === 405 || err.code === 406 || err.code === 415 || err.code === 422;
}

function keyOfObject(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/**
 * A reflector (client-go's name for it): a resumable list+watch over a WatchSource. Named apart
 * from the operator's shared `Informer` (operator/runtime), which watches through ClusterPort and
 * so, on a real cluster, through one of these.
 *
 * Without a resume point it lists, hands every object to the handler as ADDED, syncs, and
 * watches from the list's resourceVersion. Every connection end (the server's timeout,
 * client-node's idle abort, any error) reconnects from the last resourceVersion seen, events
 * and bookmarks alike, after a backoff when it was an error. A 410 (history compacted) relists
 * and emits the difference from what the handler was told as ADDED/MODIFIED/DELETED, so
 * handlers converge on the server's state.
 *
 * With a resume point it delivers only the changes after it; since it cannot know what the
 * handler holds, a 410 ends it with an ERROR event. It syncs on the first bookmark (the API
 * server sends one after the backlog) or when its first connection ends cleanly.
 *
 * Before it has synced, request errors that a retry cannot fix (400, 422, ...) end it with an
 * ERROR event; afterwards everything but a resumed watch's 410 is retried.
 */
export class Reflector implements Watch {
  readonly synced: Promise<void>;
  readonly #source: WatchSource;
  readonly #handler: WatchHandler;
  readonly #options: ReflectorOptions;
  readonly #abort = new AbortController();
  readonly #resumed: boolean;
  /** What the handler has been (or is about to be) told exists; only kept when listing. */
  readonly #known = new Map<string, KubeObject>();
  #queue: QueueItem[] = [];
  /** The next item of `#queue` to deliver: taking from the front by index, not `shift`. */
  #head = 0;
  #draining = false;
  #stopped = false;
  #syncQueued = false;
  #isSynced = false;
  /** Where the next connection resumes: the newest version that arrived. */
  #nextRv: string;
  /** resourceVersion of the last item the handler was given. */
  #deliveredRv: string;
  #resolve!: () => void;
  #reject!: (err: unknown) => void;

  constructor(source: WatchSource, handler: WatchHandler, options: ReflectorOptions) {
    this.#source = source;
    this.#handler = handler;
    this.#options = options;
    const rv = options.resourceVersion;
    this.#resumed = rv !== undefined && rv !== '' && rv !== '0';
    this.#nextRv = this.#resumed ? (rv as string) : '0';
    this.#deliveredRv = this.#nextRv;
    this.synced = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody has to await `synced`; an early stop must not surface as an unhandled rejection.
    this.synced.catch(() => {});
    void this.#run();
  }

  hasSynced(): boolean {
    return this.#isSynced;
  }

  resourceVersion(): string {
    return this.#deliveredRv;
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
    this.#abort.abort(new Error('watch stopped'));
    if (!this.#isSynced) this.#reject(new Error('watch stopped before it synced'));
  }

  async #run(): Promise<void> {
    const signal = this.#abort.signal;
    let failures = 0;
    try {
      if (!this.#resumed && !(await this.#relist(true))) return;
      while (!this.#stopped) {
        const timeout = this.#syncQueued
          ? this.#options.timeoutSeconds
          : Math.min(this.#options.syncProbeSeconds, this.#options.timeoutSeconds);
        let delivered = false;
        const startedAt = this.#options.clock.now();
        try {
          await this.#source.stream(
            this.#nextRv,
            timeout,
            (event) => {
              delivered = true;
              this.#onStreamEvent(event);
            },
            signal,
          );
          if (this.#stopped) return;
          // A clean end after the backlog: everything up to the connection's start was sent.
          if (!this.#syncQueued) this.#queueSync(this.#nextRv);
          if (!delivered && this.#options.clock.now() - startedAt < INSTANT_CLOSE_MS) {
            // Something closes connections at once (a proxy?): do not spin.
            failures++;
            await this.#pause(new UnreachableError('watch connection closed at once', undefined), failures);
            continue;
          }
          failures = 0;
          this.#options.logger.debug(
            { watch: this.#options.description, resourceVersion: this.#nextRv },
            'watch connection ended; resuming',
          );
        } catch (caught) {
          if (this.#stopped) return;
          const err = caught as KubeError;
          if (isGone(err)) {
            if (this.#resumed) {
              this.#fail(err);
              return;
            }
            this.#options.logger.info(
              { watch: this.#options.description, resourceVersion: this.#nextRv },
              'watch history expired; relisting',
            );
            if (!(await this.#relist(false))) return;
            failures = 0;
            continue;
          }
          if (!this.#syncQueued && isPermanent(err)) {
            this.#fail(err);
            return;
          }
          failures = delivered ? 1 : failures + 1;
          await this.#pause(err, failures);
        }
      }
    } catch (err) {
      if (!this.#stopped) {
        this.#options.logger.error({ watch: this.#options.description, err }, 'watch loop crashed');
        this.#fail(err as KubeError);
      }
    }
  }

  /** Lists until it succeeds; false when the informer ended instead. */
  async #relist(initial: boolean): Promise<boolean> {
    let failures = 0;
    while (!this.#stopped) {
      let listed: { items: KubeObject[]; resourceVersion: string };
      try {
        listed = await this.#source.list(this.#abort.signal);
      } catch (caught) {
        if (this.#stopped) return false;
        const err = caught as KubeError;
        if (initial && isPermanent(err)) {
          this.#fail(err);
          return false;
        }
        failures++;
        await this.#pause(err, failures);
        continue;
      }
      if (this.#stopped) return false;
      if (initial) {
        for (const object of listed.items) {
          this.#known.set(keyOfObject(object), object);
          this.#push({ kind: 'event', event: { type: 'ADDED', object } });
        }
        this.#nextRv = listed.resourceVersion;
        this.#queueSync(listed.resourceVersion);
      } else {
        this.#replaceKnown(listed.items);
        this.#nextRv = listed.resourceVersion;
        this.#push({ kind: 'progress', rv: listed.resourceVersion });
      }
      return true;
    }
    return false;
  }

  /** After a relist: tells the handler what changed while history was lost. */
  #replaceKnown(items: readonly KubeObject[]): void {
    const before = new Map(this.#known);
    this.#known.clear();
    for (const object of items) {
      const key = keyOfObject(object);
      this.#known.set(key, object);
      const previous = before.get(key);
      before.delete(key);
      if (previous === undefined) {
        this.#push({ kind: 'event', event: { type: 'ADDED', object } });
      } else if (previous.metadata.resourceVersion !== object.metadata.resourceVersion) {
        this.#push({ kind: 'event', event: { type: 'MODIFIED', object } });
      }
    }
    for (const gone of before.values()) {
      this.#push({ kind: 'event', event: { type: 'DELETED', object: gone } });
    }
  }

  #onStreamEvent(event: StreamEvent): void {
    if (this.#stopped) return;
    if (event.type === 'BOOKMARK') {
      this.#nextRv = event.resourceVersion;
      if (!this.#syncQueued) this.#queueSync(event.resourceVersion);
      else this.#push({ kind: 'progress', rv: event.resourceVersion });
      return;
    }
    const object = event.object;
    const rv = object.metadata.resourceVersion;
    if (rv !== undefined && rv !== '') this.#nextRv = rv;
    if (!this.#resumed) {
      if (event.type === 'DELETED') this.#known.delete(keyOfObject(object));
      else this.#known.set(keyOfObject(object), object);
    }
    this.#push({
      kind: 'event',
      event: { type: event.type, object },
      ...(rv === undefined || rv === '' ? {} : { rv }),
    });
  }

  async #pause(err: KubeError, failures: number): Promise<void> {
    const delayMs = backoffDelay(this.#options.backoff, failures, this.#options.random);
    this.#options.logger.warn(
      { watch: this.#options.description, err, failures, delayMs, resourceVersion: this.#nextRv },
      'watch failed; retrying',
    );
    try {
      await sleep(this.#options.timers, delayMs, this.#abort.signal);
    } catch {
      // Stopped while waiting.
    }
  }

  #queueSync(rv: string): void {
    this.#syncQueued = true;
    this.#push({ kind: 'sync', rv });
  }

  #fail(error: KubeError): void {
    this.#push({ kind: 'event', event: { type: 'ERROR', error } });
  }

  #push(item: QueueItem): void {
    if (this.#stopped) return;
    this.#queue.push(item);
    if (this.#draining) return;
    this.#draining = true;
    // Handlers never run inside the network callback (or the constructor) that queued the event.
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    const slices = timeSlices(
      this.#options.elapsedMs ?? (() => performance.now()),
      this.#options.defer ?? deferToEventLoop,
      this.#options.sliceMs ?? DefaultSliceMs,
    );
    try {
      while (this.#head < this.#queue.length && !this.#stopped) {
        if (slices.due()) {
          await slices.yield();
          if (this.#stopped) break;
        }
        const item = this.#take();
        if (item.kind === 'sync') {
          this.#deliveredRv = item.rv;
          this.#isSynced = true;
          this.#resolve();
          continue;
        }
        if (item.kind === 'progress') {
          this.#deliveredRv = item.rv;
          continue;
        }
        try {
          await this.#handler(item.event);
        } catch (err) {
          this.#options.logger.error(
            { watch: this.#options.description, err, event: item.event.type },
            'watch handler failed',
          );
        }
        if (item.rv !== undefined) this.#deliveredRv = item.rv;
        if (item.event.type === 'ERROR') {
          this.#reject(item.event.error);
          this.stop();
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  #take(): QueueItem {
    const item = this.#queue[this.#head++] as QueueItem;
    // Dropped once delivered, in one go: shift() moved the rest of a 20,000-item relist each time.
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
