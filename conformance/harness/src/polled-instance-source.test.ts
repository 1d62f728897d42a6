import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import type { MockInstance } from './mock-instance.js';
import { polledInstanceSource } from './polled-instance-source.js';

const instance = (id: string, state: MockInstance['state']): MockInstance => ({
  providerID: `test://${id}`,
  nodeName: id,
  instanceType: 't',
  zone: 'z',
  capacityType: 'on-demand',
  architecture: 'amd64',
  capacity: { cpu: '2' },
  labels: {},
  state,
  launchedAt: 0,
});

describe('polledInstanceSource', () => {
  it('reports each state change once per poll, and terminated once an instance leaves the list', async () => {
    const timers = new ManualTimers(new FakeClock(0));
    let list: MockInstance[] = [instance('a', 'pending')];
    const seen: string[] = [];
    const stop = polledInstanceSource(timers, 100, () => list).watch((m) =>
      seen.push(`${m.nodeName}:${m.state}`),
    );
    expect(seen).toEqual(['a:pending']);
    await timers.advance(100);
    expect(seen).toEqual(['a:pending']);
    list = [instance('a', 'running'), instance('b', 'terminated')];
    await timers.advance(100);
    expect(seen).toEqual(['a:pending', 'a:running']);
    list = [];
    await timers.advance(100);
    expect(seen).toEqual(['a:pending', 'a:running', 'a:terminated']);
    stop();
    list = [instance('c', 'running')];
    await timers.advance(1_000);
    expect(seen).toHaveLength(3);
    expect(timers.pending()).toBe(0);
  });
});
