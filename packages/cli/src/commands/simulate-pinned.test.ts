import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { SimulationResult } from '@nodewright/core/simulation';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { createCliServices } from '../compose.js';
import { fakeIo } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createCommands } from './index.js';

// Every shipped scenario, run in full through the CLI's own `simulate` (the composition the
// binary uses, with `--baseline cluster-autoscaler`), must give exactly the committed summary of
// each run and the same series. The simulator is deterministic for a seed, so any difference is
// a change of behaviour — which speed work must not make unnoticed. After a deliberate change of
// behaviour, `UPDATE_SIMULATION_PINS=1 pnpm exec vitest run --project unit simulate-pinned`
// rewrites the expectations; review their diff like code.

const scenarios = new URL('../../../../examples/scenarios/', import.meta.url);
const pinsFile = new URL('./simulate-pinned.expected.json', import.meta.url);
const shipped = readdirSync(scenarios)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

/** What is pinned of one run: its whole summary and a digest of its per-minute series. */
interface Pinned {
  readonly summary: SimulationResult['summary'];
  readonly samples: number;
  readonly seriesSha256: string;
}

type Pins = Record<string, { readonly nodewright: Pinned; readonly baseline: Pinned }>;

const pin = (run: Pick<SimulationResult, 'summary' | 'series'>): Pinned => ({
  summary: run.summary,
  samples: run.series.length,
  seriesSha256: createHash('sha256').update(JSON.stringify(run.series)).digest('hex'),
});

const update = process.env.UPDATE_SIMULATION_PINS === '1';
const expected: Pins = JSON.parse(readFileSync(pinsFile, 'utf8')) as Pins;
const actual: Pins = {};

async function simulate(file: string): Promise<SimulationResult> {
  const command = (await createCommands(InTreeProviders)).find((c) => c.name === 'simulate')!;
  const io = fakeIo(scenarios.pathname);
  const argv = [file, '-o', 'json', '--baseline', 'cluster-autoscaler'];
  const code = await command.run(parseCommandArgs(argv, command.options, command.positionals), {
    io,
    services: createCliServices(InTreeProviders),
  });
  expect(code, io.err()).toBe(0);
  return JSON.parse(io.out()) as SimulationResult;
}

describe('pinned summaries of the shipped scenarios (examples/scenarios)', () => {
  it('pins every shipped scenario and nothing else', () => {
    if (!update) expect(Object.keys(expected).sort()).toEqual(shipped);
  });

  it.each(shipped)(
    '%s: nodewright and the Cluster Autoscaler baseline give the pinned results',
    async (file) => {
      const result = await simulate(file);
      const got = { nodewright: pin(result), baseline: pin(result.baseline!) };
      actual[file] = got;
      if (update) {
        const pins = Object.fromEntries(
          shipped.map((f) => [f, actual[f] ?? expected[f]]).filter(([, p]) => p),
        );
        writeFileSync(pinsFile, `${JSON.stringify(pins, null, 2)}\n`);
        return;
      }
      expect(
        expected[file],
        `no pinned results for ${file}: run with UPDATE_SIMULATION_PINS=1`,
      ).toBeDefined();
      expect(got.nodewright.summary).toEqual(expected[file]!.nodewright.summary);
      expect(got.baseline.summary).toEqual(expected[file]!.baseline.summary);
      expect(got).toEqual(expected[file]);
    },
    600_000,
  );
});
