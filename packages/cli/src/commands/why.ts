import type { Node, NodePool } from '@nodewright/core/apis';
import type { CatalogProviders } from '@nodewright/core/catalog';
import type { Clock } from '@nodewright/core/clock';
import type { DisruptionResult, DisruptionSnapshot } from '@nodewright/core/disruption';
import type { SolverInput, SolverResult } from '@nodewright/core/scheduling';
import { type Command, InputOptions, UsageError } from '../command.js';
import { writeErrors } from '../io.js';
import { ClusterOptions, ClusterOptionsHelp } from '../live/cluster-target.js';
import { recentEvents } from '../live/recent-events.js';
import { disruptionInput } from '../snapshot/disruption-input.js';
import { type ClusterRead, type LiveInputs, readClusterSnapshot } from '../snapshot/read-cluster.js';
import { renderWhyNodeText, renderWhyPodText } from '../why/render-why.js';
import { explainNode } from '../why/why-node.js';
import { explainPod } from '../why/why-pod.js';
import { disruptReport, passTime } from './disrupt.js';
import { CommandSummaries } from './summaries.js';

/** What `why` is built from; the composition root passes the real ones. */
export interface WhyDependencies {
  readonly catalogs: CatalogProviders;
  readonly solve: (input: SolverInput) => SolverResult;
  /** "Now" of the disruption pass when `--now` is not given. */
  readonly clock: Clock;
  readonly computeDisruption: (snapshot: DisruptionSnapshot, now: number) => DisruptionResult;
  readonly live: LiveInputs;
}

const OutputFormats = ['json', 'text'] as const;
const Usage =
  'nodewright why (pod [NAMESPACE/]NAME [-n NAMESPACE] | node NAME) [--kubeconfig FILE] [--context NAME] [-f FILE...] [--catalog NAME|FILE]... [--now RFC3339] [-o json|text]';

/**
 * `nodewright why pod|node`: one object of a live cluster explained with the decisions
 * `schedule` and `disrupt` make. Read-only. Exit 0 answered (whatever the answer), 1 the cluster
 * or input cannot be read or the object is not there, 2 usage error.
 */
export function createWhyCommand(deps: WhyDependencies): Command {
  const known = deps.catalogs.names();
  return {
    name: 'why',
    summary: CommandSummaries.why,
    usage: Usage,
    positionals: { min: 2, max: 2 },
    help: `usage: ${Usage}

Explains one object of a live cluster, reading it as kubectl would (list and get only).

why pod: why the pod is pending — per NodePool, the requirement, taint, limit or
readiness that rules it out (the reasons schedule gives and the controller's
FailedScheduling events carry), why existing nodes refuse it, and the cheapest instance
type of the catalogs that would hold it if a NodePool allowed it. A pod that would get a
node, is bound, or is not provisioned for (DaemonSet pods, other schedulers) says so.

why node: why the node is or is not being consolidated or drifted — the rule that blocks
it (do-not-disrupt on the node or a pod, a PodDisruptionBudget, consolidateAfter not yet
passed, a disruption budget, an unknown price), or what a method found when it tried it
(no cheaper replacement, with the prices), the command that takes it, and its NodePool's
budgets and consolidation settings, as disrupt reports them.

Options:
${ClusterOptionsHelp}
  -n, --namespace NS   The pod's namespace when NAME has none; default: default.
  -f, --filename FILE  Read these manifests instead of a cluster (or besides it, with
                       --kubeconfig or --context); see schedule --help.
      --catalog C      Instance types: a built-in catalog name or a file of
                       InstanceTypeCatalog objects; repeatable. Default: the catalogs of the
                       NodePools' NodeClass providers (${known.join(', ') || 'none built in'}).
      --now TIME       The time of the disruption pass (why node), RFC 3339; default now.
  -o, --output FMT     json (see docs/cli.md) or text (default).
  -h, --help           Show this help.

Exit status: 0 explained; 1 the cluster or an input cannot be read, or the pod or node is
not there; 2 usage error.
`,
    options: {
      ...InputOptions,
      ...ClusterOptions,
      namespace: { type: 'string', short: 'n' },
      catalog: { type: 'string', multiple: true },
      now: { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
    async run({ values, positionals }, context) {
      const { io } = context;
      const output = values.output === undefined ? 'text' : String(values.output);
      if (!(OutputFormats as readonly string[]).includes(output))
        throw new UsageError(`-o must be json or text, not '${output}'`);
      const [what, name] = positionals as [string, string];
      if (what !== 'pod' && what !== 'node')
        throw new UsageError(`why pod NAME or why node NAME, not why ${what}`);
      const now = passTime(values, deps.clock);
      const pod = what === 'pod' ? podKeyOf(name, values.namespace) : undefined;
      const hasFiles = Array.isArray(values.filename) && values.filename.length > 0;
      const read = await readClusterSnapshot(values, context, deps.catalogs, {
        ...deps.live,
        always: !hasFiles,
      });
      if (read === undefined) return 1;
      const write = (json: unknown, text: string) =>
        io.stdout.write(output === 'json' ? `${JSON.stringify(json, null, 2)}\n` : text);

      if (pod !== undefined) {
        const report = explainPod(read, pod, deps.solve);
        if (report === undefined) {
          // A pod the schemas refused was read but left out: say why rather than "not found".
          const refused = read.snapshot.notes.find((n) => n.startsWith(`Pod/${pod.name} left out: `));
          const why = refused === undefined ? 'not found' : `cannot be explained: ${refused}`;
          writeErrors(io.stderr, [`nodewright why: pod ${pod.namespace}/${pod.name} ${why}`]);
          return 1;
        }
        const withEvents = await addEvents(read, report, { kind: 'Pod', ...pod });
        write(withEvents, renderWhyPodText(withEvents));
        return 0;
      }
      const result = deps.computeDisruption(disruptionInput(read), now);
      const of = <T>(kind: string) =>
        read.parsed
          .filter((p) => `${p.manifest.apiVersion}/${p.manifest.kind}` === kind)
          .map((p) => p.value as T);
      const report = explainNode(
        disruptReport(result, now, read.snapshot),
        name,
        of<Node>('v1/Node'),
        of<NodePool>('karpenter.sh/v1/NodePool'),
      );
      if (report === undefined) {
        writeErrors(io.stderr, [`nodewright why: node ${name} not found`]);
        return 1;
      }
      const withEvents = await addEvents(read, report, { kind: 'Node', name });
      write(withEvents, renderWhyNodeText(withEvents));
      return 0;
    },
  };
}

/** The report with the object's newest Events, when it came from a cluster. */
async function addEvents<R extends { readonly notes: string[] }>(
  read: ClusterRead,
  report: R,
  object: { readonly kind: string; readonly name: string; readonly namespace?: string },
): Promise<R> {
  if (read.cluster === undefined) return report;
  const { events, note } = await recentEvents(read.cluster, object);
  return { ...report, events, notes: note === undefined ? report.notes : [...report.notes, note] };
}

/** `NS/NAME`, or `NAME` in `--namespace` (default `default`), as kubectl reads it. */
function podKeyOf(text: string, namespace: unknown): { namespace: string; name: string } {
  const slash = text.indexOf('/');
  if (slash < 0) return { namespace: typeof namespace === 'string' ? namespace : 'default', name: text };
  const ns = text.slice(0, slash);
  const name = text.slice(slash + 1);
  if (ns === '' || name === '' || name.includes('/'))
    throw new UsageError(`a pod is NAMESPACE/NAME or NAME, not '${text}'`);
  if (typeof namespace === 'string' && namespace !== ns)
    throw new UsageError(`-n ${namespace} contradicts the namespace of ${text}`);
  return { namespace: ns, name };
}
