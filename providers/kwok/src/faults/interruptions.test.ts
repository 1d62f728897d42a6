import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { type InterruptibleInstance, KwokInterruptions } from './interruptions.js';

const spot: InterruptibleInstance = {
  providerID: 'kwok://a',
  capacityType: 'spot',
  instanceType: 'c-1x-amd64-linux',
  zone: 'test-zone-a',
};
const onDemand: InterruptibleInstance = { ...spot, providerID: 'kwok://b', capacityType: 'on-demand' };

function make(random: () => number, rate = 0) {
  const clock = new FakeClock(1_000_000);
  const source = new KwokInterruptions({
    clock,
    random: { next: random },
    instances: async () => [spot, onDemand],
    spotInterruptionsPerHour: rate,
  });
  return { clock, source };
}

describe('KwokInterruptions', () => {
  it('delivers a queued notice with its deadline and offering, again after 30 s until acknowledged', async () => {
    const { clock, source } = make(() => 1);
    source.interrupt(spot);
    const [notice] = await source.receive();
    expect(notice).toMatchObject({
      kind: 'SpotInterruption',
      providerID: 'kwok://a',
      deadline: 1_000_000 + 120_000,
      offering: { capacityType: 'spot', instanceType: 'c-1x-amd64-linux', zone: 'test-zone-a' },
    });
    expect(await source.receive()).toEqual([]);
    clock.step(30_000);
    expect((await source.receive()).map((n) => n.id)).toEqual([notice!.id]);
    await source.acknowledge(notice!);
    clock.step(60_000);
    expect(await source.receive()).toEqual([]);
  });

  it('draws spot interruptions at the configured rate, never for on-demand, once per instance', async () => {
    const { clock, source } = make(() => 0, 1);
    expect(await source.receive()).toEqual([]); // the first receive only starts the clock
    clock.step(60_000);
    const notices = await source.receive();
    expect(notices.map((n) => n.providerID)).toEqual(['kwok://a']);
    clock.step(60_000);
    expect(source.pending()).toHaveLength(1);
  });

  it('draws nothing when the uniform draw is above the probability of the elapsed time', async () => {
    // 1 per hour over 1 minute: p = 1 - e^(-1/60) ≈ 0.0165.
    const { clock, source } = make(() => 0.02, 1);
    await source.receive();
    clock.step(60_000);
    expect(await source.receive()).toEqual([]);
  });

  it('takes the instance at the deadline unless already taken, once per instance', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const taken: string[] = [];
    const source = new KwokInterruptions({
      clock,
      timers,
      random: { next: () => 1 },
      instances: async () => [spot],
      noticeMs: 60_000,
      take: async (id) => {
        taken.push(id);
      },
    });
    source.interrupt(spot);
    source.interrupt(spot, 'ScheduledMaintenance');
    await timers.advance(59_999);
    expect(taken).toEqual([]);
    await timers.advance(1);
    expect(taken).toEqual(['kwok://a']);
    source.interrupt(onDemand, 'InstanceStopping');
    source.close();
    await timers.advance(120_000);
    expect(taken).toEqual(['kwok://a']);
  });
});
