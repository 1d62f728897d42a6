import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';
import { md5Hex } from './sqs/queues.js';

let mock: AwsMock;
let sqs: SQSClient;
let timers: ManualTimers;

beforeEach(async () => {
  const clock = new FakeClock(Date.parse('2026-12-01T12:00:00Z'));
  timers = new ManualTimers(clock);
  mock = await startAwsMock({ cluster: 'c1', clock, timers });
  sqs = new SQSClient({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  sqs.destroy();
  await mock.close();
});

/** Waits (in real time, briefly) until the mock has seen `n` ReceiveMessage calls. */
async function receivesSeen(n: number): Promise<void> {
  while (mock.faults.calls('ReceiveMessage') < n) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 20));
}

describe('SQS mock with the real SDK', () => {
  it('finds the interruption queue, receives a pushed event with a valid MD5 and deletes it', async () => {
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'c1-interruption' }));
    expect(QueueUrl).toBe(`${mock.endpoint}/123456789012/c1-interruption`);
    const event = mock.events.spotInterruption('i-0123456789abcdef0');
    const id = mock.pushInterruption(event);
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    expect(out.Messages).toHaveLength(1);
    const [message] = out.Messages!;
    expect(message?.MessageId).toBe(id);
    expect(message?.MD5OfBody).toBe(md5Hex(message!.Body!));
    expect(JSON.parse(message!.Body!)).toEqual(event);
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message!.ReceiptHandle }));
    expect(mock.interruptionQueue.messages).toHaveLength(0);
  });

  it('long-polls and returns as soon as a message arrives, before the wait ends', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'events' }));
    const receive = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 20 }));
    await receivesSeen(1);
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'ünïcode body ✓' }));
    expect(sent.MD5OfMessageBody).toBe(md5Hex('ünïcode body ✓'));
    // No mock time has passed: the poll was answered by the send, not by its 20 s deadline.
    const out = await receive;
    expect(out.Messages?.[0]?.Body).toBe('ünïcode body ✓');
    const empty = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
    await receivesSeen(2);
    await timers.advance(1000);
    expect((await empty).Messages ?? []).toEqual([]);
  });

  it('hides received messages for the visibility timeout and shows them again after', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'vis' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'a' }));
    const first = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl,
        VisibilityTimeout: 1,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
    );
    expect(first.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('1');
    const hidden = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
    expect(hidden.Messages ?? []).toEqual([]);
    await timers.advance(1000);
    const again = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ['All'] }),
    );
    expect(again.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: first.Messages![0]!.ReceiptHandle }));
    expect(mock.sqs.byName('vis')?.messages).toHaveLength(0);
  });

  it('answers QueueDoesNotExist and bad receipt handles with typed errors', async () => {
    await expect(sqs.send(new GetQueueUrlCommand({ QueueName: 'nope' }))).rejects.toMatchObject({
      name: 'QueueDoesNotExist',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      sqs.send(new ReceiveMessageCommand({ QueueUrl: `${mock.endpoint}/123456789012/nope` })),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(
      sqs.send(new DeleteMessageCommand({ QueueUrl: mock.interruptionQueue.url, ReceiptHandle: 'garbage' })),
    ).rejects.toMatchObject({ name: 'ReceiptHandleIsInvalid' });
    mock.faults.throttleNext({ service: 'sqs', action: 'ReceiveMessage' }, 1);
    await expect(
      sqs.send(new ReceiveMessageCommand({ QueueUrl: mock.interruptionQueue.url })),
    ).rejects.toMatchObject({
      name: 'ThrottlingException',
    });
  });
});
