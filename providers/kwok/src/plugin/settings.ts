import { durationMs } from '@nodewright/core/apis';
import type { OfferingKey } from '@nodewright/core/cloudprovider';
import { parseOfferingList } from '../faults/offering-list.js';

/** The settings `--set key=value` accepts for `--provider kwok`, with their `--help` line. */
export const KwokSettingDescriptions: Readonly<Record<string, string>> = {
  insufficientCapacity:
    'offerings that always lack capacity, comma-separated capacityType:instanceType:zone (fault injection)',
  spotInterruptionsPerHour:
    'spot interruptions per spot node per hour, drawn from interruptionSeed (default 0)',
  interruptionSeed: 'seed of the interruption draws (default "kwok")',
  interruptionNotice: 'time from an interruption notice to the node being taken, e.g. 2m (default 2m)',
  unavailableOfferingsTtl: 'how long an offering without capacity stays unavailable, e.g. 3m (default 3m)',
};

/** The KWOK provider's settings, parsed. */
export interface KwokSettings {
  readonly insufficientCapacity: readonly OfferingKey[];
  readonly spotInterruptionsPerHour: number;
  readonly interruptionSeed: string;
  readonly interruptionNoticeMs: number;
  readonly unavailableOfferingsTtlMs: number;
}

/**
 * Parses the provider settings.
 * @throws Error naming every unknown key, or the setting whose value is malformed.
 */
export function parseKwokSettings(settings: Readonly<Record<string, string>>): KwokSettings {
  const unknown = Object.keys(settings).filter((k) => !(k in KwokSettingDescriptions));
  if (unknown.length > 0) {
    throw new Error(
      `unknown kwok provider setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${Object.keys(KwokSettingDescriptions).join(', ')}`,
    );
  }
  const rate =
    settings.spotInterruptionsPerHour === undefined ? 0 : Number(settings.spotInterruptionsPerHour);
  if (!Number.isFinite(rate) || rate < 0) {
    throw new Error(
      `setting spotInterruptionsPerHour: "${settings.spotInterruptionsPerHour}" is not a non-negative number`,
    );
  }
  return {
    insufficientCapacity: parseOfferingList(settings.insufficientCapacity ?? ''),
    spotInterruptionsPerHour: rate,
    interruptionSeed: settings.interruptionSeed ?? 'kwok',
    interruptionNoticeMs: durationSetting(settings, 'interruptionNotice', 120_000),
    unavailableOfferingsTtlMs: durationSetting(settings, 'unavailableOfferingsTtl', 3 * 60_000),
  };
}

function durationSetting(settings: Readonly<Record<string, string>>, key: string, fallback: number): number {
  const text = settings[key];
  if (text === undefined) return fallback;
  const ms = durationMs(text);
  if (ms === undefined || !Number.isFinite(ms)) {
    throw new Error(`setting ${key}: "${text}" is not a duration such as 30s, 2m or 1h`);
  }
  return ms;
}
