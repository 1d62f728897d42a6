import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { aPod } from '../../testing/pod-builder.js';
import { DedupingEventRecorder, DefaultEventDedupeMs, TokenBucket } from './event-dedupe.js';
import { type PublishedEvent, RecordingEventRecorder } from './event-recorder.js';

const pod = aPod({ metadata: { name: 'web', uid: 'uid-web' } });
const event = (message: string, extra: Partial<PublishedEvent> = {}): PublishedEvent => ({
  object: pod,
  type: 'Normal',
  reason: 'Nominated',
  message,
  dedupe: { values: ['uid-web'] },
  ...extra,
});

function setup() {
  const clock = new FakeClock(0);
  const inner = new RecordingEventRecorder();
  return { clock, inner, recorder: new DedupingEventRecorder(inner, clock) };
}

describe('DedupingEventRecorder', () => {
  it('drops an event of the same reason and values within the timeout, whatever its message', async () => {
    const { clock, inner, recorder } = setup();
    await recorder.publish(event('Pod should schedule on: nodeclaim/a'));
    clock.step(DefaultEventDedupeMs - 1);
    await recorder.publish(event('Pod should schedule on: nodeclaim/b'));
    expect(inner.events.map((e) => e.message)).toEqual(['Pod should schedule on: nodeclaim/a']);
    clock.step(1);
    await recorder.publish(event('Pod should schedule on: nodeclaim/b'));
    expect(inner.events.map((e) => e.message)).toEqual([
      'Pod should schedule on: nodeclaim/a',
      'Pod should schedule on: nodeclaim/b',
    ]);
  });

  it("keeps other reasons, other objects and events without values apart, and honours an event's own timeout", async () => {
    const { clock, inner, recorder } = setup();
    await recorder.publish(event('a'));
    await recorder.publish(
      event('b', { reason: 'FailedScheduling', dedupe: { values: ['uid-web'], timeoutMs: 300_000 } }),
    );
    await recorder.publish(event('c', { dedupe: { values: ['uid-api'] } }));
    await recorder.publish(event('d', { dedupe: undefined }));
    await recorder.publish(event('e', { dedupe: undefined }));
    clock.step(200_000);
    await recorder.publish(
      event('f', { reason: 'FailedScheduling', dedupe: { values: ['uid-web'], timeoutMs: 300_000 } }),
    );
    await recorder.publish(event('g'));
    expect(inner.events.map((e) => e.message)).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
  });

  it('publishes only what the rate limiter allows after deduping', async () => {
    const { clock, inner, recorder } = setup();
    const limiter = new TokenBucket(5, 10, clock);
    for (let i = 0; i < 30; i++)
      await recorder.publish(event(`${i}`, { dedupe: { values: [`pod-${i}`] }, rateLimiter: limiter }));
    expect(inner.events).toHaveLength(10);
    clock.step(1_000);
    for (let i = 30; i < 40; i++)
      await recorder.publish(event(`${i}`, { dedupe: { values: [`pod-${i}`] }, rateLimiter: limiter }));
    expect(inner.events).toHaveLength(15);
  });

  it('forgets expired keys, so a long run does not hold every object it ever saw', async () => {
    const { clock, inner, recorder } = setup();
    for (let i = 0; i < 5_000; i++) {
      await recorder.publish(event(`${i}`, { dedupe: { values: [`pod-${i}`] } }));
      clock.step(1_000);
    }
    expect(inner.events).toHaveLength(5_000);
    // Every key older than 2 minutes has been swept at least once: the twin of an old one passes.
    await recorder.publish(event('again', { dedupe: { values: ['pod-0'] } }));
    expect(inner.events.at(-1)?.message).toBe('again');
  });
});

describe('TokenBucket', () => {
  it('starts full, refills at its rate and never holds more than its burst', () => {
    const clock = new FakeClock(0);
    const bucket = new TokenBucket(5, 10, clock);
    const take = (n: number) => Array.from({ length: n }, () => bucket.tryAccept()).filter(Boolean).length;
    expect(take(12)).toBe(10);
    clock.step(400);
    expect(take(5)).toBe(2);
    clock.step(60_000);
    expect(take(20)).toBe(10);
  });
});
