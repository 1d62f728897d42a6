import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { RecordingTimers } from './recording-timers.js';

describe('RecordingTimers', () => {
  it('records each delay and still runs and cancels through the inner timers', async () => {
    const clock = new FakeClock(0);
    const inner = new ManualTimers(clock);
    const timers = new RecordingTimers(inner);
    const fired: string[] = [];
    timers.after(5, () => fired.push('a'));
    const cancel = timers.after(10, () => fired.push('b'));
    cancel();
    await inner.advance(20);
    expect(fired).toEqual(['a']);
    expect(timers.delays()).toEqual([5, 10]);
  });
});
