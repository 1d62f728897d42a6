// Cost over seeds (issue 18, item 4): every shipped scenario under nodewright and under the
// Cluster Autoscaler baseline, each with its own seed and the next ones, printing cost, the
// time-integrated lower bound and p90 pending time per run and, per scenario, how nodewright
// compares across the seeds. Run with `pnpm bench:cost` (builds first). See README.md.
//
// Why seeds: a scenario's cost is a chaotic function of the controllers' decisions — one
// consolidation taken or not changes which nodes exist for the rest of the day — so a policy
// change that saves a few percent on the shipped seed can cost more on the next. A lever is only
// worth keeping when it wins across seeds.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { catalogWellKnownLabels, instanceTypesFromCatalog } from '../packages/core/dist/catalog/index.js';
import {
  formatScenarioError,
  parseScenario,
  runClusterAutoscalerBaseline,
  runSimulation,
  type Scenario,
  type SimulationSummary,
} from '../packages/core/dist/simulation/index.js';
import { kwokCatalogProvider } from '../providers/kwok/dist/index.js';

const ScenarioDir = resolve(import.meta.dirname, '../examples/scenarios');

interface Options {
  readonly scenarios: readonly string[];
  readonly seeds: number;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const shipped = readdirSync(ScenarioDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const scenarios = value('--scenarios')?.split(',') ?? shipped;
  for (const s of scenarios)
    if (!shipped.includes(s)) throw new Error(`--scenarios: no ${s} in examples/scenarios`);
  const seeds = Number(value('--seeds') ?? 5);
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`--seeds: ${value('--seeds')} is not a count`);
  return { scenarios, seeds };
}

function loadScenario(file: string): Scenario {
  const parsed = parseScenario(readFileSync(resolve(ScenarioDir, file), 'utf8'), file);
  if (parsed.scenario === undefined) throw new Error(parsed.errors.map(formatScenarioError).join('\n'));
  if (parsed.scenario.catalog !== 'kwok')
    throw new Error(`${file}: the benchmark runs kwok-catalog scenarios only`);
  return parsed.scenario;
}

/** One seed of one scenario: both runs' summaries. */
interface SeedRun {
  readonly seed: Scenario['seed'];
  readonly nodewright: SimulationSummary;
  readonly baseline: SimulationSummary;
}

async function runSeed(scenario: Scenario, seed: Scenario['seed']): Promise<SeedRun> {
  const catalog = await kwokCatalogProvider.catalog();
  const instanceTypes = instanceTypesFromCatalog(catalog).instanceTypes;
  const seeded = { ...scenario, seed };
  const own = await runSimulation({
    scenario: seeded,
    instanceTypes,
    wellKnownLabels: catalogWellKnownLabels([catalog]),
  });
  const base = await runClusterAutoscalerBaseline({ scenario: seeded, instanceTypes });
  return { seed, nodewright: own.summary, baseline: base.summary };
}

/** nodewright's cost over the baseline's, in percent (negative: nodewright is cheaper). */
const deltaPercent = (r: SeedRun) =>
  (100 * (r.nodewright.cost.total - r.baseline.cost.total)) / r.baseline.cost.total;

const money = (x: number) => `$${x.toFixed(2)}`;
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} %`;

function seedLine(name: string, r: SeedRun): string {
  const nw = r.nodewright;
  const ca = r.baseline;
  return [
    name.padEnd(14),
    String(r.seed).padStart(5),
    money(nw.cost.total).padStart(8),
    nw.cost.lowerBoundRatio.toFixed(3).padStart(7),
    money(ca.cost.total).padStart(8),
    ca.cost.lowerBoundRatio.toFixed(3).padStart(7),
    signed(deltaPercent(r)).padStart(9),
    `${nw.pods.pendingSeconds.p90} s / ${ca.pods.pendingSeconds.p90} s`.padStart(18),
  ].join(' ');
}

function scenarioLine(name: string, runs: readonly SeedRun[]): string {
  const deltas = runs.map(deltaPercent);
  const mean = deltas.reduce((s, d) => s + d, 0) / deltas.length;
  const cheaper = deltas.filter((d) => d < 0).length;
  const slower = runs.filter(
    (r) => r.nodewright.pods.pendingSeconds.p90 > r.baseline.pods.pendingSeconds.p90,
  ).length;
  return `${name}: nodewright vs CA mean ${signed(mean)}, best ${signed(Math.min(...deltas))}, worst ${signed(Math.max(...deltas))}; cheaper on ${cheaper} of ${runs.length} seeds; p90 pending worse than CA on ${slower}`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  console.log(
    `${'scenario'.padEnd(14)} ${'seed'.padStart(5)} ${'nw'.padStart(8)} ${'nw/LB'.padStart(7)} ${'CA'.padStart(8)} ${'CA/LB'.padStart(7)} ${'nw vs CA'.padStart(9)} ${'p90 pending nw/CA'.padStart(18)}`,
  );
  const summaries: string[] = [];
  for (const file of options.scenarios) {
    const scenario = loadScenario(file);
    const name = basename(file, '.yaml');
    const runs: SeedRun[] = [];
    for (let i = 0; i < options.seeds; i++) {
      // The scenario's own seed first, so the first line is the run the pinned summaries hold.
      const seed =
        typeof scenario.seed === 'number'
          ? scenario.seed + i
          : i === 0
            ? scenario.seed
            : `${scenario.seed}-${i}`;
      process.stderr.write(`${name}, seed ${seed} ...\n`);
      runs.push(await runSeed(scenario, seed));
      console.log(seedLine(name, runs.at(-1)!));
    }
    summaries.push(scenarioLine(name, runs));
  }
  console.log('');
  for (const s of summaries) console.log(s);
}

await main();
