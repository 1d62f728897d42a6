import { describe, expect, it } from 'vitest';
import { parseKwokSettings } from './settings.js';

describe('parseKwokSettings', () => {
  it('defaults every setting', () => {
    expect(parseKwokSettings({})).toEqual({
      insufficientCapacity: [],
      spotInterruptionsPerHour: 0,
      interruptionSeed: 'kwok',
      interruptionNoticeMs: 120_000,
      unavailableOfferingsTtlMs: 180_000,
    });
  });

  it('parses offerings, rates and durations', () => {
    const s = parseKwokSettings({
      insufficientCapacity: 'spot:c-1x-amd64-linux:test-zone-a, on-demand:m-2x-arm64-linux:test-zone-b',
      spotInterruptionsPerHour: '0.5',
      interruptionNotice: '30s',
      unavailableOfferingsTtl: '1m',
    });
    expect(s.insufficientCapacity).toEqual([
      { capacityType: 'spot', instanceType: 'c-1x-amd64-linux', zone: 'test-zone-a' },
      { capacityType: 'on-demand', instanceType: 'm-2x-arm64-linux', zone: 'test-zone-b' },
    ]);
    expect(s.spotInterruptionsPerHour).toBe(0.5);
    expect(s.interruptionNoticeMs).toBe(30_000);
    expect(s.unavailableOfferingsTtlMs).toBe(60_000);
  });

  it('names the setting and the bad value', () => {
    expect(() => parseKwokSettings({ insufficientCapacity: 'spot:c-1x' })).toThrow(
      /insufficientCapacity: "spot:c-1x"/,
    );
    expect(() => parseKwokSettings({ spotInterruptionsPerHour: '-1' })).toThrow(
      /spotInterruptionsPerHour: "-1"/,
    );
    expect(() => parseKwokSettings({ interruptionNotice: 'Never' })).toThrow(/interruptionNotice: "Never"/);
  });
});
