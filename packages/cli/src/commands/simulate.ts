import { dirname, isAbsolute, resolve } from 'node:path';
import { closestName } from '@nodewright/core/apis';
import type { CatalogProviders } from '@nodewright/core/catalog';
import {
  catalogWellKnownLabels,
  describeCatalogProblem,
  instanceTypesFromCatalog,
} from '@nodewright/core/catalog';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { type ManifestFs, systemErrorReason } from '@nodewright/core/manifests';
import {
  BaselineAutoscalers,
  type BaselineResult,
  compareSummaries,
  formatScenarioError,
  parseScenario,
  type RunSimulationOptions,
  runClusterAutoscalerBaseline,
  type ScenarioError,
  type SimulationProgress,
  type SimulationResult,
  scenarioFieldError,
} from '@nodewright/core/simulation';
import { type Command, UsageError } from '../command.js';
import { formatElapsed, plural } from '../format/index.js';
import { writeErrors } from '../io.js';
import { notInstalledHint } from '../providers/not-installed.js';
import { renderSimulationHtml, renderSimulationResultText } from './simulate-report.js';
import { CommandSummaries } from './summaries.js';

/** What `simulate` is built from; the composition root passes the real ones. */
export interface SimulateDependencies {
  /** Catalogs a scenario's `catalog: NAME` may pick. */
  readonly catalogs: CatalogProviders;
  readonly run: (options: RunSimulationOptions) => Promise<SimulationResult>;
  /** The `--baseline cluster-autoscaler` run; default core's runClusterAutoscalerBaseline. */
  readonly runBaseline?: (options: RunSimulationOptions) => Promise<BaselineResult>;
  /** Wall-clock milliseconds, for the progress line. */
  readonly wallClock: () => number;
}

const HOUR = 3_600_000;

/**
 * `nodewright simulate SCENARIO`: runs the scenario through every controller on the embedded
 * cluster and a simulated cloud, then prints the summary (text or `-o json`), optionally
 * writing an HTML report. Exit 1 for an unreadable or invalid scenario, 2 for usage.
 */
export function createSimulateCommand(deps: SimulateDependencies): Command {
  return {
    name: 'simulate',
    summary: CommandSummaries.simulate,
    usage: 'nodewright simulate SCENARIO [-o json|text] [--report FILE.html] [--baseline cluster-autoscaler]',
    help: `usage: nodewright simulate SCENARIO [-o json|text] [--report FILE.html] [--baseline cluster-autoscaler]

Runs the real controllers (provisioning, NodeClaim lifecycle, termination and drain,
disruption, expiration, garbage collection) against the embedded cluster and a simulated
cloud, on a simulated clock, and prints a summary: nodes launched and terminated, peak
nodes, cost, time-weighted CPU and memory utilisation (requests / allocatable), pod pending
time percentiles and disruptions by reason. SCENARIO is a YAML file in nodewright's own
scenario format; see examples/scenarios/. The same scenario and seed give the same result.

Options:
  -o, --output FMT     json (one object: summary and time series) or text (default).
      --report FILE    Also write a self-contained HTML report with charts to FILE.
      --baseline cluster-autoscaler
                       Also run the scenario (same workloads, seed, cloud, scheduler and
                       kubelet) under Cluster Autoscaler on fixed node groups — one
                       instance type per NodePool and capacity type, CA's defaults — and
                       compare: JSON gains "baseline" and "comparison", text and the
                       report show both runs.
  -h, --help           Show this help.

Progress (simulated time reached, wall time so far and an estimate of the time left) goes
to standard error every few seconds.

Exit status: 0 simulated; 1 the scenario is unreadable or invalid, or the report cannot be
written (the summary is still printed); 2 usage error.
`,
    options: {
      output: { type: 'string', short: 'o' },
      report: { type: 'string' },
      baseline: { type: 'string' },
    },
    positionals: { min: 1, max: 1 },
    async run({ values, positionals }, { io, services }) {
      const output = values.output === undefined ? 'text' : String(values.output);
      if (output !== 'json' && output !== 'text')
        throw new UsageError(`-o must be json or text, not '${output}'`);
      const baseline = values.baseline === undefined ? undefined : String(values.baseline);
      if (baseline !== undefined && !(BaselineAutoscalers as readonly string[]).includes(baseline))
        throw new UsageError(`--baseline must be ${BaselineAutoscalers.join(' or ')}, not '${baseline}'`);
      const reportFile = typeof values.report === 'string' ? values.report : undefined;
      const report = reportFile === undefined ? undefined : resolve(io.cwd, reportFile);
      if (reportFile !== undefined && report !== undefined) {
        const problem = await reportPathProblem(services.fs, report);
        if (problem !== undefined) {
          writeErrors(io.stderr, [`${reportFile}: --report: cannot write: ${problem}`]);
          return 1;
        }
      }
      const file = positionals[0]!;
      const path = isAbsolute(file) ? file : resolve(io.cwd, file);
      const scenarioFile = await readScenarioFile(services.fs, path, file);
      if ('error' in scenarioFile) {
        writeErrors(io.stderr, [formatScenarioError(scenarioFile.error)]);
        return 1;
      }
      const parsed = parseScenario(scenarioFile.text, file);
      if (parsed.scenario === undefined) {
        writeErrors(io.stderr, parsed.errors.map(formatScenarioError));
        return 1;
      }
      const { scenario, source } = parsed;
      let instanceTypes: InstanceType[];
      let wellKnownLabels: ReadonlySet<string>;
      if (typeof scenario.catalog === 'string') {
        const provider = deps.catalogs.get(scenario.catalog);
        if (provider === undefined) {
          const known = deps.catalogs.names();
          const meant = closestName(scenario.catalog, known);
          const hint = meant === undefined ? '' : ` (did you mean "${meant}"?)`;
          writeErrors(io.stderr, [
            formatScenarioError(
              scenarioFieldError(
                source,
                'catalog',
                `unknown catalog "${scenario.catalog}"${hint}; known: ${known.join(', ')}${notInstalledHint(scenario.catalog, known)}`,
              ),
            ),
          ]);
          return 1;
        }
        const catalog = await provider.catalog();
        instanceTypes = instanceTypesFromCatalog(catalog).instanceTypes;
        wellKnownLabels = catalogWellKnownLabels([catalog]);
      } else {
        const built = instanceTypesFromCatalog(scenario.catalog);
        if (built.problems.length > 0) {
          writeErrors(
            io.stderr,
            built.problems.map((p) =>
              formatScenarioError(scenarioFieldError(source, 'catalog', describeCatalogProblem(p))),
            ),
          );
          return 1;
        }
        instanceTypes = built.instanceTypes;
        wellKnownLabels = catalogWellKnownLabels([scenario.catalog]);
      }
      const progress = (prefix: string) => (p: SimulationProgress) =>
        io.stderr.write(
          `${prefix}simulated ${(p.simulatedMs / HOUR).toFixed(1)} h of ${(p.durationMs / HOUR).toFixed(1)} h: ${plural(p.nodes, 'node')}, ${plural(p.podsPending, 'pod')} pending; ${formatElapsed(p.wallMs)} wall${p.etaMs === undefined ? '' : `, about ${formatElapsed(p.etaMs)} to go`}\n`,
        );
      const own = await deps.run({
        scenario,
        instanceTypes,
        wellKnownLabels,
        wallClock: deps.wallClock,
        onProgress: progress(baseline === undefined ? '' : 'nodewright: '),
      });
      let result: SimulationResult = own;
      if (baseline !== undefined) {
        const base = await (deps.runBaseline ?? runClusterAutoscalerBaseline)({
          scenario,
          instanceTypes,
          wallClock: deps.wallClock,
          onProgress: progress(`${baseline}: `),
        });
        result = { ...own, baseline: base, comparison: compareSummaries(own.summary, base.summary) };
      }
      // The report is written apart from the summary: a report that cannot be written (the
      // disk filled during a long run) costs the report only, never the run's printed results.
      let reportError: string | undefined;
      if (reportFile !== undefined && report !== undefined) {
        try {
          await services.fs.writeFile(report, renderSimulationHtml(result));
        } catch (error) {
          reportError = `${reportFile}: --report: cannot write: ${systemErrorReason(error)}; the summary is on standard output`;
        }
      }
      io.stdout.write(
        output === 'json' ? `${JSON.stringify(result, null, 2)}\n` : renderSimulationResultText(result),
      );
      if (reportError === undefined) return 0;
      writeErrors(io.stderr, [reportError]);
      return 1;
    },
  };
}

/**
 * Why the report cannot be written to `path`, checked before the run so a long simulation does
 * not end in a report that cannot be written: the path must not be a directory and its
 * directory must exist. Undefined when it looks writable.
 */
async function reportPathProblem(fs: ManifestFs, path: string): Promise<string | undefined> {
  if (await fs.isDirectory(path).catch(() => false)) return 'is a directory';
  const parent = dirname(path);
  try {
    if (!(await fs.isDirectory(parent))) return `${parent} is not a directory`;
  } catch (error) {
    return `${parent}: ${systemErrorReason(error)}`;
  }
  return undefined;
}

/**
 * The scenario file's text, or the one error saying why it cannot be read: a directory is
 * named as such (a scenario is one file), other failures in the system's words.
 */
async function readScenarioFile(
  fs: ManifestFs,
  path: string,
  file: string,
): Promise<{ text: string } | { error: ScenarioError }> {
  try {
    return { text: await fs.readFile(path) };
  } catch (err) {
    const directory = await fs.isDirectory(path).catch(() => false);
    const message = directory
      ? 'is a directory; simulate runs one scenario file (e.g. examples/scenarios/diurnal-web.yaml)'
      : `cannot read: ${systemErrorReason(err)}`;
    return { error: { file, message } };
  }
}
