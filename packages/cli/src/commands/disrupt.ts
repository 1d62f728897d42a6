import { isDateTime } from '@nodewright/core/apis';
import type { CatalogProviders } from '@nodewright/core/catalog';
import type { Clock } from '@nodewright/core/clock';
import {
  type DisruptionResult,
  type DisruptionSnapshot,
  UnlimitedDisruptions,
} from '@nodewright/core/disruption';
import { podKey } from '@nodewright/core/scheduling';
import { type Command, InputOptions, InputOptionsHelp, type OptionValues, UsageError } from '../command.js';
import { formatPerHour, plural } from '../format/index.js';
import { ClusterOptions, ClusterOptionsHelp } from '../live/cluster-target.js';
import type { IgnoredPod } from '../snapshot/build-snapshot.js';
import { type NodeClaimJson, nodeClaimsJson } from '../snapshot/claim-json.js';
import { disruptionInput } from '../snapshot/disruption-input.js';
import { type LiveInputs, readClusterSnapshot } from '../snapshot/read-cluster.js';
import { CommandSummaries } from './summaries.js';

/** What `disrupt` is built from; the composition root passes the real ones. */
export interface DisruptDependencies {
  /** The catalogs `--catalog NAME` may pick. */
  readonly catalogs: CatalogProviders;
  /** "Now" when `--now` is not given. */
  readonly clock: Clock;
  /** One disruption pass (core's computeDisruption). */
  readonly computeDisruption: (snapshot: DisruptionSnapshot, now: number) => DisruptionResult;
  /** Reading a live cluster (`--kubeconfig`, `--context`); without it only `-f` is read. */
  readonly live?: LiveInputs;
}

/** `nodewright disrupt -o json`: the CLI contract's object, plus budgets, now, ignored and notes. */
export interface DisruptReport {
  readonly commands: Array<{
    readonly method: string;
    readonly reason: string;
    readonly candidates: string[];
    readonly replacements: NodeClaimJson[];
    readonly savingsPerHour: number;
    /** Where each of the candidates' pods would go: an existing node, or a replacement (index). */
    readonly moves: Array<{ readonly pod: string; readonly node?: string; readonly replacement?: number }>;
  }>;
  /** Every managed node. */
  readonly candidates: Array<{
    readonly node: string;
    readonly nodePool: string;
    readonly disruptable: boolean;
    readonly blockedBy?: string;
    readonly reasons: string[];
    readonly drifted?: string;
    readonly pricePerHour?: number;
    readonly note?: string;
  }>;
  /** Allowed disruptions per NodePool and reason at the start of the pass; null = unlimited. */
  readonly budgets: Array<{
    readonly nodePool: string;
    readonly reason: string;
    readonly nodes: number;
    readonly allowed: number | null;
  }>;
  readonly now: string;
  readonly ignored: IgnoredPod[];
  readonly notes: string[];
  /**
   * Consolidation searches stopped at their time budget (multi-node 1 min, single-node 3 min):
   * how long they ran, how many simulations they made, and the nodes they did not try.
   */
  readonly cutShort: Array<{
    readonly method: string;
    readonly budgetMs: number;
    readonly elapsedMs: number;
    readonly simulations: number;
    readonly skipped: string[];
    readonly message: string;
  }>;
}

const PriceDecimals = 6;

function roundPrice(price: number): number {
  return Number(price.toFixed(PriceDecimals));
}

function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The report of one pass, in the contract's shape. */
export function disruptReport(
  result: DisruptionResult,
  now: number,
  extra: { readonly ignored: IgnoredPod[]; readonly notes: string[] },
): DisruptReport {
  return {
    commands: result.commands.map((c) => ({
      method: c.method,
      reason: c.reason,
      candidates: [...c.candidates],
      replacements: nodeClaimsJson(c.replacements),
      savingsPerHour: roundPrice(c.savingsPerHour),
      moves: c.moves.map((m) => ({ pod: podKey(m.pod), ...m.to })),
    })),
    candidates: result.nodes.map((n) => ({
      node: n.node,
      nodePool: n.nodePool,
      disruptable: n.disruptable,
      ...(n.blockedBy === undefined ? {} : { blockedBy: n.blockedBy }),
      reasons: [...n.reasons],
      ...(n.drifted === undefined ? {} : { drifted: n.drifted }),
      ...(n.pricePerHour === undefined ? {} : { pricePerHour: n.pricePerHour }),
      ...(n.note === undefined ? {} : { note: n.note }),
    })),
    budgets: result.budgets.map((b) => ({
      nodePool: b.nodePool,
      reason: b.reason,
      nodes: b.nodes,
      allowed: b.allowed >= UnlimitedDisruptions ? null : b.allowed,
    })),
    now: formatTime(now),
    ignored: extra.ignored,
    notes: [...extra.notes, ...result.problems, ...result.cutShort.map((c) => c.message)],
    cutShort: result.cutShort.map((c) => ({
      method: c.method,
      budgetMs: c.budgetMs,
      elapsedMs: Math.round(c.elapsedMs),
      simulations: c.attempts,
      skipped: [...c.skipped],
      message: c.message,
    })),
  };
}

const ShownTypes = 5;

/** The report for people: the command (if any) with its moves and replacements, then every node. */
export function renderDisruptText(report: DisruptReport): string {
  const lines: string[] = [`Disruption pass at ${report.now}`, ''];
  if (report.commands.length === 0)
    lines.push(
      'No command: neither emptiness, drift, nor multi-node or single-node consolidation found a node to disrupt now.',
      '',
    );
  for (const c of report.commands) {
    const action =
      c.replacements.length === 0
        ? 'delete'
        : `replace with ${plural(c.replacements.length, 'new NodeClaim')}`;
    lines.push(
      `Command: ${c.method} (${c.reason}): ${action}: ${c.candidates.join(', ')}; saves ${formatPerHour(c.savingsPerHour)}`,
    );
    for (const [i, r] of c.replacements.entries()) {
      const more = r.instanceTypes.length - ShownTypes;
      const types = r.instanceTypes.slice(0, ShownTypes).join(', ') + (more > 0 ? ` and ${more} more` : '');
      lines.push(`  replacement ${i} from NodePool ${r.nodePool}: ${formatPerHour(r.price)}, ${types}`);
    }
    for (const m of c.moves) {
      lines.push(`  ${m.pod} -> ${m.node ?? `replacement ${m.replacement}`}`);
    }
    lines.push('');
  }
  const width = Math.max(4, ...report.candidates.map((n) => n.node.length));
  const poolWidth = Math.max(8, ...report.candidates.map((n) => n.nodePool.length));
  lines.push(`${'NODE'.padEnd(width)}  ${'NODEPOOL'.padEnd(poolWidth)}  VERDICT`);
  for (const n of report.candidates) {
    const verdict = n.disruptable ? `disruptable (${n.reasons.join(', ')})` : `blocked: ${n.blockedBy}`;
    lines.push(`${n.node.padEnd(width)}  ${n.nodePool.padEnd(poolWidth)}  ${verdict}`);
    if (n.drifted !== undefined) lines.push(`${' '.repeat(width + poolWidth + 4)}drifted: ${n.drifted}`);
    if (n.note !== undefined) lines.push(`${' '.repeat(width + poolWidth + 4)}${n.note}`);
  }
  if (report.candidates.length === 0) lines.push('(no managed nodes: none carries karpenter.sh/nodepool)');
  lines.push('');
  if (report.ignored.length > 0) {
    lines.push(`Ignored (${report.ignored.length}):`);
    for (const p of report.ignored) lines.push(`  ${p.pod}: ${p.reason}`);
    lines.push('');
  }
  for (const note of report.notes) lines.push(`Note: ${note}`);
  if (report.notes.length > 0) lines.push('');
  const disrupted = report.commands.reduce((n, c) => n + c.candidates.length, 0);
  const saved = roundPrice(report.commands.reduce((s, c) => s + c.savingsPerHour, 0));
  const blocked = report.candidates.filter((n) => !n.disruptable).length;
  const saves = report.commands.length === 0 ? '' : `; saves ${formatPerHour(saved)}`;
  lines.push(
    `Summary: ${plural(report.candidates.length, 'managed node')}, ${disrupted} to disrupt, ${blocked} blocked${saves}`,
  );
  return `${lines.join('\n')}\n`;
}

const OutputFormats = ['json', 'text'] as const;

/** The time of a disruption pass: `--now` (RFC 3339), else the clock's. */
export function passTime(values: OptionValues, clock: Clock): number {
  if (values.now === undefined) return clock.now();
  const text = String(values.now);
  if (!isDateTime(text))
    throw new UsageError(`--now must be an RFC 3339 time such as 2024-05-01T12:00:00Z, not '${text}'`);
  return Date.parse(text);
}

/**
 * `nodewright disrupt`: one pass of the disruption controller over the given manifests, at
 * `--now` (default: the clock). Finding nothing to disrupt is an answer, not an error: exit 0;
 * invalid input exits 1, a bad command line 2.
 */
export function createDisruptCommand(deps: DisruptDependencies): Command {
  const known = deps.catalogs.all();
  const catalogList =
    known.length === 0
      ? '                       (no catalogs are built in)'
      : known.map((c) => `                       ${c.name}: ${c.description}`).join('\n');
  const usage =
    'nodewright disrupt (-f FILE... [-R] | --kubeconfig FILE | --context NAME) [--catalog NAME|FILE]... [--now RFC3339] [-o json|text]';
  return {
    name: 'disrupt',
    summary: CommandSummaries.disrupt,
    usage,
    help: `usage: ${usage}

Runs one pass of the disruption controller over the given cluster: emptiness, drift,
multi-node consolidation, single-node consolidation, in that order; the first method that
yields a command wins. Managed nodes carry the karpenter.sh/nodepool label; a node's price
is its offering's (instance type, zone, capacity type) in the catalog.

Every managed node is listed: disruptable (with the reasons it may be disrupted for), or
blocked, with why: not initialized, being deleted, karpenter.sh/do-not-disrupt on the node
or a pod, a PodDisruptionBudget, consolidateAfter not yet passed, consolidationPolicy
WhenEmpty, a disruption budget (count or percentage, cron windows in UTC, reasons), an
unknown price. NodeClaims (drift conditions and hashes, lastPodEventTime) and PDBs in the
input are honoured.

With --kubeconfig or --context, the objects are read from that cluster, together with any
-f files; without --catalog, the catalogs of the NodePools' NodeClass providers are used.

Options:
${InputOptionsHelp}
${ClusterOptionsHelp}
      --catalog C      Instance types: a built-in catalog name or a file of
                       InstanceTypeCatalog objects; repeatable. Catalogs among the -f
                       objects are used too. Built in:
${catalogList}
      --now TIME       The time of the pass, RFC 3339 (e.g. 2024-05-01T12:00:00Z);
                       default: now. Budgets' schedules, consolidateAfter and
                       do-not-disrupt durations are judged at this time.
  -o, --output FMT     json (the contract's object) or text (default).
  -h, --help           Show this help.

Exit status: 0 decided (also when nothing is to be disrupted); 1 an input is unreadable or
invalid; 2 usage error.
`,
    options: {
      ...InputOptions,
      ...ClusterOptions,
      catalog: { type: 'string', multiple: true },
      now: { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
    async run({ values }, context) {
      const { io } = context;
      const output = values.output === undefined ? 'text' : String(values.output);
      if (!(OutputFormats as readonly string[]).includes(output)) {
        throw new UsageError(`-o must be json or text, not '${output}'`);
      }
      const now = passTime(values, deps.clock);
      const read = await readClusterSnapshot(values, context, deps.catalogs, deps.live);
      if (read === undefined) return 1;
      const disruption = disruptionInput(read);
      const result = deps.computeDisruption(disruption, now);
      const report = disruptReport(result, now, read.snapshot);
      io.stdout.write(output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderDisruptText(report));
      return 0;
    },
  };
}
