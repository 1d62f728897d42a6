import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { afterAnIoTurn } from './io-turn.js';
import { ManualTimers, SystemTimers } from './timers.js';

describe('afterAnIoTurn', () => {
  it('lets I/O that completed while the loop was held run before the timer', async () => {
    const order: string[] = [];
    await new Promise<void>((done) => {
      const lenient = afterAnIoTurn(new SystemTimers());
      const plain = new SystemTimers();
      // An immediate queued while both timers are due stands in for the poll phase's I/O.
      plain.after(5, () => {
        order.push('plain');
        setImmediate(() => order.push('io'));
      });
      lenient.after(5, () => {
        order.push('lenient');
        done();
      });
      const until = Date.now() + 30;
      while (Date.now() < until) {
        // Hold the loop past both due times.
      }
    });
    expect(order).toEqual(['plain', 'io', 'lenient']);
  });

  it('fires at the due time on manual timers, after callbacks already due then; cancel stops it', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const lenient = afterAnIoTurn(timers);
    const fired: [string, number][] = [];
    lenient.after(100, () => fired.push(['lenient', clock.now()]));
    timers.after(100, () => fired.push(['plain', clock.now()]));
    const cancel = lenient.after(50, () => fired.push(['cancelled', clock.now()]));
    cancel();
    await timers.advance(200);
    expect(fired).toEqual([
      ['plain', 100],
      ['lenient', 100],
    ]);
  });

  it('cancelling between due time and the extra turn stops it', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const lenient = afterAnIoTurn(timers);
    let fired = false;
    // Armed after the lenient timer, so it runs once that timer is due and its extra turn armed.
    const cancel = lenient.after(100, () => {
      fired = true;
    });
    timers.after(100, () => cancel());
    await timers.advance(200);
    expect(fired).toBe(false);
  });
});
