import type { CatalogProviders } from '@nodewright/core/catalog';
import type { SolverInput, SolverResult } from '@nodewright/core/scheduling';
import { type Command, InputOptions, InputOptionsHelp, UsageError } from '../command.js';
import { ClusterOptions, ClusterOptionsHelp } from '../live/cluster-target.js';
import { type LiveInputs, readClusterSnapshot } from '../snapshot/read-cluster.js';
import { type ReportFunctions, renderScheduleText, scheduleReport } from '../snapshot/schedule-report.js';
import { CommandSummaries } from './summaries.js';

/** What `schedule` is built from; the composition root passes the real ones. */
export interface ScheduleDependencies {
  /** The catalogs `--catalog NAME` may pick. */
  readonly catalogs: CatalogProviders;
  /** The provisioning solver. */
  readonly solve: (input: SolverInput) => SolverResult;
  /** Pod requests and the lower bound, for the summary's lowerBoundPerHour. */
  readonly report: ReportFunctions;
  /** Reading a live cluster (`--kubeconfig`, `--context`); without it only `-f` is read. */
  readonly live?: LiveInputs;
}

const OutputFormats = ['json', 'text'] as const;

const Synopsis =
  '(-f FILE... [-R] | --kubeconfig FILE | --context NAME) [--catalog NAME|FILE]... [--expand-workloads] [-o json|text]';

/**
 * `nodewright schedule`: one provisioning decision over the given manifests, exactly as the
 * controller would make it. Unschedulable pods are part of the answer, not an input error,
 * so they do not change the exit status; only invalid input does (1), or a bad command line (2).
 */
export function createScheduleCommand(deps: ScheduleDependencies): Command {
  const known = deps.catalogs.all();
  const catalogList =
    known.length === 0
      ? '                       (no catalogs are built in)'
      : known.map((c) => `                       ${c.name}: ${c.description}`).join('\n');
  return {
    name: 'schedule',
    summary: CommandSummaries.schedule,
    usage: `nodewright schedule ${Synopsis}`,
    help: `usage: nodewright schedule ${Synopsis}

Makes one provisioning decision, as the controller would: the pending pods (Pods without
spec.nodeName) go onto existing Nodes and in-flight NodeClaims where they fit, otherwise
onto new NodeClaims from the NodePools (by weight), honouring requests, DaemonSet
overhead, node selectors and affinity, taints, topology spread, pod (anti-)affinity,
volume topology, host ports, limits, minValues and offerings.

Pods owned by a DaemonSet or a Node, pods of another scheduler, finished pods and pods
being deleted are left out, each listed with the reason. Every NodePool may launch the
types of every catalog given; its requirements narrow them.

With --kubeconfig or --context, the objects are read from that cluster (Pods, Nodes,
NodePools, NodeClaims, NodeClasses, DaemonSets, PDBs, volumes), together with any -f files;
without --catalog, the catalogs of the NodePools' NodeClass providers are used.

Options:
${InputOptionsHelp}
${ClusterOptionsHelp}
      --catalog C      Instance types: a built-in catalog name or a file of
                       InstanceTypeCatalog objects; repeatable. Catalogs among the -f
                       objects are used too. Built in:
${catalogList}
      --expand-workloads
                       Turn Deployments, ReplicaSets, StatefulSets, Jobs and CronJobs into
                       the pending pods they would create ("what would deploying this
                       cost?", e.g. helm template ... | nodewright schedule -f -). Pods of
                       the input their selector matches count towards replicas; one line
                       per workload on stderr says how many pods it became.
  -o, --output FMT     json (the contract's object) or text (default).
  -h, --help           Show this help.

Exit status: 0 decided (even when some pods are unschedulable: they are reported with
their reasons); 1 an input is unreadable or invalid; 2 usage error.
`,
    options: {
      ...InputOptions,
      ...ClusterOptions,
      catalog: { type: 'string', multiple: true },
      'expand-workloads': { type: 'boolean' },
      output: { type: 'string', short: 'o' },
    },
    async run({ values }, context) {
      const { io } = context;
      const output = values.output === undefined ? 'text' : String(values.output);
      if (!(OutputFormats as readonly string[]).includes(output)) {
        throw new UsageError(`-o must be json or text, not '${output}'`);
      }
      const read = await readClusterSnapshot(values, context, deps.catalogs, deps.live);
      if (read === undefined) return 1;
      const { snapshot } = read;
      const result = deps.solve(snapshot.input);
      const report = scheduleReport(snapshot.input, result, deps.report, snapshot);
      io.stdout.write(
        output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderScheduleText(report),
      );
      return 0;
    },
  };
}
