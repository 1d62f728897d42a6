import type {
  DeleteMessageCommandInput,
  DeleteMessageCommandOutput,
  ReceiveMessageCommandInput,
  ReceiveMessageCommandOutput,
} from '@aws-sdk/client-sqs';
import { CapacityTypes } from '@nodewright/core/apis';
import type { Clock } from '@nodewright/core/clock';
import {
  type InterruptionMessageMetrics,
  type InterruptionNotice,
  type InterruptionSource,
  interruptionMessageType,
  NoOpMessageType,
} from '@nodewright/core/cloudprovider';
import { type AwsInstance, toAwsInstance } from '../instance/aws-instance.js';
import { formatProviderID } from '../instance/provider-id.js';
import type { AwsLogger } from '../launch/logger.js';
import type { Ec2Api, SqsApi } from '../sdk/index.js';
import { parseInterruptionMessage } from './messages.js';

/**
 * SqsApi with the abort option the SDK client's calls take, so a long poll ends when the
 * controller stops (the aggregated `SQS` client satisfies it).
 */
export interface InterruptionQueueApi extends SqsApi {
  receiveMessage(
    input: ReceiveMessageCommandInput,
    options?: { abortSignal?: AbortSignal },
  ): Promise<ReceiveMessageCommandOutput>;
  deleteMessage(input: DeleteMessageCommandInput): Promise<DeleteMessageCommandOutput>;
}

/** How to build an SqsInterruptionSource. */
export interface SqsInterruptionSourceDeps {
  readonly sqs: InterruptionQueueApi;
  readonly ec2: Pick<Ec2Api, 'describeInstances'>;
  /** The queue's name (the `interruptionQueue` setting); its URL is looked up once. */
  readonly queueName: string;
  readonly logger: AwsLogger;
  /** Karpenter's interruption-queue metrics (received, deleted, time on the queue). */
  readonly metrics: InterruptionMessageMetrics;
  /** Reads now for the time a message spent on the queue. */
  readonly clock: Clock;
  /** Long-poll wait; default 20 s (the SQS maximum). */
  readonly waitTimeSeconds?: number;
}

/**
 * Races `work` against the signal: undefined once it aborts (the request is aborted too), and
 * the listener is removed either way so a long-lived signal collects none.
 */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return work;
  let onAbort: (() => void) | undefined;
  const abort = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, abort]);
  } catch (err) {
    if (signal.aborted) return undefined;
    throw err;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Interruption notices from the SQS queue EventBridge feeds (see the README for the rules).
 * `receive` long-polls (up to 10 messages, 20 s, abortable), parses each message, and turns
 * instance ids into providerIDs with one DescribeInstances per batch. Messages that are
 * malformed, not interruptions, or about instances EC2 no longer knows are logged and deleted
 * at once; every other message is deleted when all notices made from it are acknowledged.
 * Metrics as Karpenter's: each message that is an event counts as received by its type (`no_op`
 * when it is no interruption), each deletion counts, and a handled event's time on the queue
 * (from the event's time to its deletion) is observed.
 */
export class SqsInterruptionSource implements InterruptionSource {
  readonly #deps: SqsInterruptionSourceDeps;
  #queueUrl: Promise<string> | undefined;
  /** Receipt handle -> notices from that message still unacknowledged, and the event's time. */
  readonly #outstanding = new Map<string, { left: number; sentAt: number | undefined }>();

  constructor(deps: SqsInterruptionSourceDeps) {
    this.#deps = deps;
  }

  async receive(signal?: AbortSignal): Promise<InterruptionNotice[]> {
    if (signal?.aborted) return [];
    const queueUrl = await this.#url();
    const out = await untilAborted(
      this.#deps.sqs.receiveMessage(
        { QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: this.#deps.waitTimeSeconds ?? 20 },
        signal === undefined ? undefined : { abortSignal: signal },
      ),
      signal,
    );
    if (out === undefined) return [];
    const parsed: {
      receipt: string;
      event: Exclude<ReturnType<typeof parseInterruptionMessage>, { ignored: string }>;
    }[] = [];
    for (const m of out.Messages ?? []) {
      if (m.ReceiptHandle === undefined) continue;
      const event = parseInterruptionMessage(m.Body);
      if ('ignored' in event) {
        this.#deps.logger.warn(
          { messageId: m.MessageId, reason: event.ignored },
          'deleting interruption queue message that is not an interruption',
        );
        if (event.event !== undefined) this.#deps.metrics.received.inc({ message_type: NoOpMessageType });
        await this.#delete(queueUrl, m.ReceiptHandle, event.event?.sentAt);
        continue;
      }
      this.#deps.metrics.received.inc({ message_type: interruptionMessageType(event.kind) });
      parsed.push({ receipt: m.ReceiptHandle, event });
    }
    if (parsed.length === 0) return [];
    const instances = await this.#describe([...new Set(parsed.flatMap((p) => p.event.instanceIds))]);
    const notices: InterruptionNotice[] = [];
    for (const { receipt, event } of parsed) {
      let made = 0;
      for (const id of event.instanceIds) {
        const instance = instances.get(id);
        if (instance === undefined || instance.zone === '') {
          this.#deps.logger.info(
            { instanceId: id, kind: event.kind },
            'interruption for an instance EC2 no longer knows; nothing to do',
          );
          continue;
        }
        notices.push({
          id: receipt,
          kind: event.kind,
          providerID: formatProviderID(instance.zone, instance.id),
          ...(event.deadline !== undefined ? { deadline: event.deadline } : {}),
          ...(event.kind === 'SpotInterruption'
            ? {
                offering: {
                  capacityType: CapacityTypes.Spot,
                  instanceType: instance.instanceType,
                  zone: instance.zone,
                },
              }
            : {}),
          message: `${event.message} for instance ${id}`,
        });
        made++;
      }
      if (made === 0) await this.#delete(queueUrl, receipt, event.sentAt);
      else {
        const left = (this.#outstanding.get(receipt)?.left ?? 0) + made;
        this.#outstanding.set(receipt, { left, sentAt: event.sentAt });
      }
    }
    return notices;
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    const outstanding = this.#outstanding.get(notice.id);
    const left = (outstanding?.left ?? 1) - 1;
    if (outstanding !== undefined && left > 0) {
      this.#outstanding.set(notice.id, { ...outstanding, left });
      return;
    }
    this.#outstanding.delete(notice.id);
    await this.#delete(await this.#url(), notice.id, outstanding?.sentAt);
  }

  #url(): Promise<string> {
    this.#queueUrl ??= this.#deps.sqs.getQueueUrl({ QueueName: this.#deps.queueName }).then(
      (out) => {
        if (out.QueueUrl === undefined)
          throw new Error(`SQS queue ${this.#deps.queueName} (setting interruptionQueue) has no URL`);
        return out.QueueUrl;
      },
      (err: unknown) => {
        this.#queueUrl = undefined;
        throw new Error(
          `SQS queue ${this.#deps.queueName} (setting interruptionQueue): ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      },
    );
    return this.#queueUrl;
  }

  /** Deletes a handled message; `sentAt` (its event's time), when known, times its stay on the queue. */
  async #delete(queueUrl: string, receipt: string, sentAt?: number): Promise<void> {
    await this.#deps.sqs.deleteMessage({ QueueUrl: queueUrl, ReceiptHandle: receipt });
    this.#deps.metrics.deleted.inc();
    if (sentAt !== undefined) {
      this.#deps.metrics.queueDuration.observe(Math.max(0, this.#deps.clock.now() - sentAt) / 1000);
    }
  }

  async #describe(ids: string[]): Promise<Map<string, AwsInstance>> {
    const byId = new Map<string, AwsInstance>();
    let token: string | undefined;
    do {
      const page = await this.#deps.ec2.describeInstances({
        Filters: [{ Name: 'instance-id', Values: ids }],
        ...(token !== undefined ? { NextToken: token } : {}),
      });
      for (const r of page.Reservations ?? [])
        for (const i of r.Instances ?? []) {
          const view = toAwsInstance(i);
          if (view !== undefined) byId.set(view.id, view);
        }
      token = page.NextToken;
    } while (token !== undefined && token !== '');
    return byId;
  }
}
