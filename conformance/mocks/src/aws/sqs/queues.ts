import { createHash } from 'node:crypto';
import type { Clock, Timers } from '@nodewright/core/clock';

/** A message in a queue, with SQS's visibility bookkeeping. */
export interface SqsMessage {
  readonly id: string;
  readonly body: string;
  readonly md5: string;
  readonly sentAt: number;
  receiveCount: number;
  /** ms since epoch from which receives see it. */
  visibleAt: number;
  /** The handle of the latest receive; deleting needs a handle this message was given. */
  handles: Set<string>;
}

/** One queue and its messages in send order. */
export interface SqsQueue {
  readonly name: string;
  readonly url: string;
  readonly arn: string;
  readonly attributes: Record<string, string>;
  readonly messages: SqsMessage[];
}

/** MD5 of the UTF-8 body, hex — what SQS returns as MD5OfBody and the SDK checks. */
export function md5Hex(body: string): string {
  return createHash('md5').update(body, 'utf8').digest('hex');
}

/**
 * The SQS queues of a mock: visibility timeouts and long polls run on the injected clock and
 * timers, so a receive waiting 20 s returns as soon as a message is sent.
 */
export class SqsQueues {
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #accountId: string;
  readonly #region: string;
  readonly #baseUrl: () => string;
  readonly #queues = new Map<string, SqsQueue>();
  readonly #waiters = new Map<string, Set<() => void>>();
  #serial = 0;

  constructor(deps: {
    readonly clock: Clock;
    readonly timers: Timers;
    readonly accountId: string;
    readonly region: string;
    /** The server's URL, known once it listens. */
    readonly baseUrl: () => string;
  }) {
    this.#clock = deps.clock;
    this.#timers = deps.timers;
    this.#accountId = deps.accountId;
    this.#region = deps.region;
    this.#baseUrl = deps.baseUrl;
  }

  /** Creates a queue, or returns the existing one of that name (as SQS does for equal attributes). */
  create(name: string, attributes: Readonly<Record<string, string>> = {}): SqsQueue {
    const existing = this.#queues.get(name);
    if (existing) return existing;
    const queue: SqsQueue = {
      name,
      url: `${this.#baseUrl()}/${this.#accountId}/${name}`,
      arn: `arn:aws:sqs:${this.#region}:${this.#accountId}:${name}`,
      attributes: { VisibilityTimeout: '30', MessageRetentionPeriod: '345600', ...attributes },
      messages: [],
    };
    this.#queues.set(name, queue);
    return queue;
  }

  byName(name: string): SqsQueue | undefined {
    return this.#queues.get(name);
  }

  /** The queue a URL names (by its last path segment, so any host spelling works). */
  byUrl(url: string): SqsQueue | undefined {
    const name = url.split('/').filter(Boolean).pop() ?? '';
    return this.#queues.get(name);
  }

  /** Adds a message, visible after `delaySeconds`, and wakes long polls. */
  send(queue: SqsQueue, body: string, delaySeconds = 0): SqsMessage {
    this.#serial++;
    const id = uuidFrom(md5Hex(`${queue.name}/${this.#serial}/${this.#clock.now()}`));
    const now = this.#clock.now();
    const message: SqsMessage = {
      id,
      body,
      md5: md5Hex(body),
      sentAt: now,
      receiveCount: 0,
      visibleAt: now + delaySeconds * 1000,
      handles: new Set(),
    };
    queue.messages.push(message);
    if (delaySeconds > 0) this.#timers.after(delaySeconds * 1000, () => this.#wake(queue));
    else this.#wake(queue);
    return message;
  }

  /** Takes up to `max` visible messages, hiding each for `visibilitySeconds`. */
  receive(
    queue: SqsQueue,
    max: number,
    visibilitySeconds: number,
  ): { message: SqsMessage; handle: string }[] {
    const now = this.#clock.now();
    const out: { message: SqsMessage; handle: string }[] = [];
    for (const message of queue.messages) {
      if (out.length >= max) break;
      if (message.visibleAt > now) continue;
      message.receiveCount++;
      message.visibleAt = now + visibilitySeconds * 1000;
      const handle = Buffer.from(`${queue.name}\n${message.id}\n${message.receiveCount}\n${now}`).toString(
        'base64',
      );
      message.handles.add(handle);
      out.push({ message, handle });
      if (visibilitySeconds > 0) this.#timers.after(visibilitySeconds * 1000, () => this.#wake(queue));
    }
    return out;
  }

  /** Resolves when a message may have become visible, or after `ms`, or when `signal` aborts. */
  waitForMessage(queue: SqsQueue, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(queue.name) ?? new Set<() => void>();
      this.#waiters.set(queue.name, waiters);
      const done = () => {
        waiters.delete(done);
        cancel();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const cancel = this.#timers.after(ms, done);
      signal?.addEventListener('abort', done);
      waiters.add(done);
    });
  }

  /**
   * Deletes the message a receipt handle was issued for. A well-formed handle of a message
   * already gone is accepted, as SQS does; a handle the queue never issued is rejected.
   */
  delete(queue: SqsQueue, handle: string): 'deleted' | 'gone' | 'invalid' {
    const index = queue.messages.findIndex((m) => m.handles.has(handle));
    if (index >= 0) {
      queue.messages.splice(index, 1);
      return 'deleted';
    }
    const [name] = Buffer.from(handle, 'base64').toString().split('\n');
    return name === queue.name ? 'gone' : 'invalid';
  }

  /** Every queue (for tests). */
  all(): readonly SqsQueue[] {
    return [...this.#queues.values()];
  }

  #wake(queue: SqsQueue): void {
    for (const waiter of [...(this.#waiters.get(queue.name) ?? [])]) waiter();
  }
}

function uuidFrom(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
