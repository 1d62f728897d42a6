import type { Clock } from '@nodewright/core/clock';
import { AwsJsonError, type JsonAction, jsonNumber, jsonString } from '../json/errors.js';
import type { SqsQueue, SqsQueues } from './queues.js';

/** What the SQS actions read. */
export interface SqsContext {
  readonly queues: SqsQueues;
  readonly clock: Clock;
  /** Aborted when the server closes, so long polls end. */
  readonly signal: AbortSignal;
}

const INVALID = 'com.amazonaws.sqs#InvalidParameterValue';

function nonExistent(): AwsJsonError {
  return new AwsJsonError(
    'com.amazonaws.sqs#QueueDoesNotExist',
    'The specified queue does not exist.',
    400,
    'AWS.SimpleQueueService.NonExistentQueue;Sender',
  );
}

function queueOf(input: Readonly<Record<string, unknown>>, ctx: SqsContext): SqsQueue {
  const url = jsonString(input, 'QueueUrl', INVALID);
  if (url === undefined)
    throw new AwsJsonError(
      'com.amazonaws.sqs#MissingParameter',
      'QueueUrl is required',
      400,
      'MissingParameter;Sender',
    );
  const queue = ctx.queues.byUrl(url);
  if (!queue) throw nonExistent();
  return queue;
}

function bounded(value: number | undefined, field: string, min: number, max: number): number | undefined {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
    throw new AwsJsonError(
      INVALID,
      `${field}: ${value} must be an integer in ${min}..${max}`,
      400,
      'InvalidParameterValue;Sender',
    );
  }
  return value;
}

export const createQueue: JsonAction<SqsContext> = (input, ctx) => {
  const name = jsonString(input, 'QueueName', INVALID);
  if (name === undefined || !/^[A-Za-z0-9_-]{1,80}(\.fifo)?$/.test(name)) {
    throw new AwsJsonError(
      INVALID,
      `QueueName: '${name ?? ''}' must be 1-80 letters, digits, - or _`,
      400,
      'InvalidParameterValue;Sender',
    );
  }
  const attributes = (input.Attributes ?? {}) as Record<string, string>;
  return { QueueUrl: ctx.queues.create(name, attributes).url };
};

export const getQueueUrl: JsonAction<SqsContext> = (input, ctx) => {
  const name = jsonString(input, 'QueueName', INVALID) ?? '';
  const queue = ctx.queues.byName(name);
  if (!queue) throw nonExistent();
  return { QueueUrl: queue.url };
};

export const sendMessage: JsonAction<SqsContext> = (input, ctx) => {
  const queue = queueOf(input, ctx);
  const body = jsonString(input, 'MessageBody', INVALID);
  if (body === undefined || body.length === 0) {
    throw new AwsJsonError(
      'com.amazonaws.sqs#MissingParameter',
      'MessageBody: the request must contain a non-empty body',
      400,
      'MissingParameter;Sender',
    );
  }
  const delay = bounded(jsonNumber(input, 'DelaySeconds', INVALID), 'DelaySeconds', 0, 900) ?? 0;
  const message = ctx.queues.send(queue, body, delay);
  return { MessageId: message.id, MD5OfMessageBody: message.md5 };
};

/**
 * ReceiveMessage: up to MaxNumberOfMessages (1..10) visible messages; with WaitTimeSeconds
 * (0..20, default the queue's ReceiveMessageWaitTimeSeconds) it long-polls and returns as soon
 * as one arrives. Received messages stay hidden for VisibilityTimeout.
 */
export const receiveMessage: JsonAction<SqsContext> = async (input, ctx) => {
  const queue = queueOf(input, ctx);
  const max = bounded(jsonNumber(input, 'MaxNumberOfMessages', INVALID), 'MaxNumberOfMessages', 1, 10) ?? 1;
  const wait =
    bounded(jsonNumber(input, 'WaitTimeSeconds', INVALID), 'WaitTimeSeconds', 0, 20) ??
    Number(queue.attributes.ReceiveMessageWaitTimeSeconds ?? 0);
  const visibility =
    bounded(jsonNumber(input, 'VisibilityTimeout', INVALID), 'VisibilityTimeout', 0, 43200) ??
    Number(queue.attributes.VisibilityTimeout ?? 30);
  const names = [
    ...((input.AttributeNames as string[] | undefined) ?? []),
    ...((input.MessageSystemAttributeNames as string[] | undefined) ?? []),
  ];
  let got = ctx.queues.receive(queue, max, visibility);
  const deadline = ctx.clock.now() + wait * 1000;
  while (got.length === 0 && wait > 0 && !ctx.signal.aborted) {
    const left = deadline - ctx.clock.now();
    if (left <= 0) break;
    await ctx.queues.waitForMessage(queue, left, ctx.signal);
    got = ctx.queues.receive(queue, max, visibility);
  }
  if (got.length === 0) return {};
  const all = names.includes('All');
  return {
    Messages: got.map(({ message, handle }) => ({
      MessageId: message.id,
      ReceiptHandle: handle,
      MD5OfBody: message.md5,
      Body: message.body,
      ...(names.length > 0
        ? {
            Attributes: {
              ...(all || names.includes('ApproximateReceiveCount')
                ? { ApproximateReceiveCount: String(message.receiveCount) }
                : {}),
              ...(all || names.includes('SentTimestamp') ? { SentTimestamp: String(message.sentAt) } : {}),
            },
          }
        : {}),
    })),
  };
};

export const deleteMessage: JsonAction<SqsContext> = (input, ctx) => {
  const queue = queueOf(input, ctx);
  const handle = jsonString(input, 'ReceiptHandle', INVALID);
  if (handle === undefined || ctx.queues.delete(queue, handle) === 'invalid') {
    throw new AwsJsonError(
      'com.amazonaws.sqs#ReceiptHandleIsInvalid',
      `ReceiptHandle: '${handle ?? ''}' is not a valid receipt handle for ${queue.name}`,
      400,
      'ReceiptHandleIsInvalid;Sender',
    );
  }
  return {};
};

/** The SQS actions the interruption consumer and tests call. */
export const SQS_ACTIONS: Readonly<Record<string, JsonAction<SqsContext>>> = {
  CreateQueue: createQueue,
  GetQueueUrl: getQueueUrl,
  SendMessage: sendMessage,
  ReceiveMessage: receiveMessage,
  DeleteMessage: deleteMessage,
};
