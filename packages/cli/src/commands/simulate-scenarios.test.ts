import { readdirSync, readFileSync } from 'node:fs';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { formatScenarioError, parseScenario, runSimulation } from '@nodewright/core/simulation';
import { kwokCatalogProvider } from '@nodewright/kwok';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../../../examples/scenarios/', import.meta.url);
const shipped = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

const HOUR = 3_600_000;

/**
 * How far each shipped scenario runs here — just past what it exists to show, so the whole file
 * stays quick — and the disruption reason that moment must have produced. A scenario added later
 * runs its first 2 hours with the common checks only.
 */
const horizons: Readonly<Record<string, { readonly hours: number; readonly reason?: string }>> = {
  'batch-burst.yaml': { hours: 1.5, reason: 'empty' }, // the first wave (30 min + 2 x 20 min) is over
  'diurnal-web.yaml': { hours: 2 }, // the night trough
  'drift-rollout.yaml': { hours: 2.5, reason: 'drifted' }, // the NodePool edit at 2 h
  'spot-storm.yaml': { hours: 3.25, reason: 'interruption' }, // the first storm at 3 h
};

describe('the shipped scenarios (examples/scenarios)', () => {
  it('are all here and all named in this test', () => {
    expect(shipped).toEqual(expect.arrayContaining(Object.keys(horizons)));
  });

  it.each(shipped)(
    '%s parses and runs: pods scheduled, nodes launched and billed',
    async (file) => {
      const parsed = parseScenario(readFileSync(new URL(file, dir), 'utf8'), file);
      expect(parsed.errors.map(formatScenarioError)).toEqual([]);
      const scenario = parsed.scenario!;
      expect(scenario.catalog).toBe('kwok');
      const { hours, reason } = horizons[file] ?? { hours: 2 };
      const duration = Math.min(scenario.duration, hours * HOUR);
      const { summary, series } = await runSimulation({
        scenario: { ...scenario, duration },
        instanceTypes: instanceTypesFromCatalog(await kwokCatalogProvider.catalog()).instanceTypes,
      });
      expect(summary.durationHours).toBe(duration / HOUR);
      expect(series.at(-1)!.hour).toBe(duration / HOUR);
      // Every pod created was bound by the end, none left pending.
      expect(summary.pods.created).toBeGreaterThan(0);
      expect(summary.pods.scheduled).toBe(summary.pods.created);
      expect(summary.pods.pendingAtEnd).toBe(0);
      expect(summary.nodes.launched).toBeGreaterThan(0);
      expect(summary.cost.total).toBeGreaterThan(0);
      expect(summary.utilisation.cpu).toBeGreaterThan(0);
      expect(summary.utilisation.cpu).toBeLessThanOrEqual(1);
      if (reason !== undefined) expect(summary.disruptions[reason]).toBeGreaterThan(0);
    },
    60_000,
  );
});
