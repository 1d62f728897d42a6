import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { CostLedger } from './cost-ledger.js';

const HOUR = 3_600_000;

function record(id: string, price: number, startedAt: number) {
  return {
    instanceID: id,
    providerID: `sim://zone-a/${id}`,
    nodeClaimName: id,
    instanceType: 't',
    zone: 'zone-a',
    capacityType: 'on-demand',
    pricePerHour: price,
    startedAt,
  };
}

describe('CostLedger', () => {
  it('bills pro rata over the overlap of each instance with the window', () => {
    const clock = new FakeClock(0);
    const ledger = new CostLedger(clock);
    ledger.start(record('a', 0.5, 0));
    ledger.start(record('b', 2, HOUR / 2));
    clock.set(2 * HOUR);
    ledger.stop('a', HOUR);
    // a: 1 h at 0.5 = 0.5; b: 1.5 h at 2 = 3 (still running, billed up to now).
    expect(ledger.costBetween(0, 10 * HOUR)).toBe(3.5);
    // Window [30 min, 90 min): a 30 min (0.25) + b 1 h (2).
    expect(ledger.costBetween(HOUR / 2, 1.5 * HOUR)).toBe(2.25);
    expect(ledger.costBetween(3 * HOUR, 4 * HOUR)).toBe(0);
    expect(ledger.hourlyRateAt(HOUR * 0.75)).toBe(2.5);
    expect(ledger.hourlyRateAt(HOUR)).toBe(2);
  });

  it('keeps the first stop and refuses double starts and unknown stops', () => {
    const clock = new FakeClock(0);
    const ledger = new CostLedger(clock);
    ledger.start(record('a', 1, 0));
    ledger.stop('a', HOUR);
    ledger.stop('a', 2 * HOUR);
    expect(ledger.records()[0]?.stoppedAt).toBe(HOUR);
    expect(() => ledger.start(record('a', 1, 0))).toThrow(/already/);
    expect(() => ledger.stop('zzz')).toThrow(/never/);
  });
});
