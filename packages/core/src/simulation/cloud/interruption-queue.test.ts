import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { SimulatedInterruptionQueue } from './interruption-queue.js';

function setup(waitMs = 20_000) {
  const clock = new FakeClock(0);
  const timers = new ManualTimers(clock);
  const queue = new SimulatedInterruptionQueue({ clock, timers, waitMs, visibilityTimeoutMs: 30_000 });
  return { clock, timers, queue };
}

const notice = { kind: 'SpotInterruption' as const, providerID: 'sim://a/i-1', message: 'reclaim' };

describe('SimulatedInterruptionQueue', () => {
  it('long-polls until a notice is published', async () => {
    const { timers, queue } = setup();
    const received = queue.receive();
    await timers.advance(5_000);
    const published = queue.publish(notice);
    expect(await received).toEqual([published]);
  });

  it('answers an empty long poll after the wait', async () => {
    const { timers, queue } = setup();
    let result: unknown;
    void queue.receive().then((r) => {
      result = r;
    });
    await timers.advance(19_999);
    expect(result).toBeUndefined();
    await timers.advance(1);
    expect(result).toEqual([]);
  });

  it('redelivers unacknowledged notices after the visibility timeout, never acknowledged ones', async () => {
    const { timers, queue } = setup(0);
    const a = queue.publish(notice);
    const b = queue.publish({ ...notice, providerID: 'sim://a/i-2' });
    expect(await queue.receive()).toEqual([a, b]);
    expect(await queue.receive()).toEqual([]);
    await queue.acknowledge(a);
    await timers.advance(30_000);
    expect(await queue.receive()).toEqual([b]);
    expect(queue.unacknowledged()).toEqual([b]);
  });

  it('rejects a waiting receive when aborted', async () => {
    const { timers, queue } = setup();
    const controller = new AbortController();
    const received = queue.receive(controller.signal);
    controller.abort(new Error('stopping'));
    await expect(received).rejects.toThrow('stopping');
    // The aborted waiter no longer swallows notices.
    queue.publish(notice);
    await timers.advance(1);
    expect(await queue.receive()).toHaveLength(1);
  });
});
