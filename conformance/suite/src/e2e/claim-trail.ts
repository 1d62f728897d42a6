import type { LogEntry } from './json-lines.js';

/** One controller's kept log entries, named by its `--identity`. */
export interface ControllerLog {
  readonly identity: string;
  readonly entries: readonly LogEntry[];
}

/** What a trail is about: a NodePool, plus the names of its claims and Nodes seen in the cluster. */
export interface TrailSubject {
  readonly nodePool: string;
  /** NodeClaims seen in the pool; those logged as created for it are added. */
  readonly nodeClaims?: Iterable<string>;
  /** Nodes seen in the pool; those logged as registered for its claims are added. */
  readonly nodes?: Iterable<string>;
}

/**
 * The log messages that tell a claim's and a node's life, by prefix: creation, launch (or its
 * failure), registration (which pairs a claim with its Node), disruption decisions and their
 * rollbacks, deletions and garbage collection.
 */
const TrailMessages = [
  'created nodeclaim',
  'launched nodeclaim',
  'failed launching nodeclaim',
  'registered nodeclaim',
  'disruption command decided',
  'disrupted nodes',
  'disruption command abandoned',
  'deleted nodeclaim',
  'deleted node',
  'garbage collecting',
] as const;

/** Fields printed after the message, in this order, when present. */
const DetailKeys = [
  'NodeClaim',
  'Node',
  'provider-id',
  'instance-type',
  'method',
  'reason',
  'candidates',
  'replacements',
  'why',
  'err',
] as const;

const isTrailMessage = (message: unknown): boolean =>
  typeof message === 'string' && TrailMessages.some((m) => message.startsWith(m));

/** The `name` of an object reference field (`{"NodeClaim":{"name":"..."}}`). */
function refName(entry: LogEntry, key: string): string | undefined {
  const ref = entry[key];
  if (typeof ref === 'object' && ref !== null && typeof (ref as { name?: unknown }).name === 'string') {
    return (ref as { name: string }).name;
  }
  return undefined;
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function detail(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(detail).join(',');
  if (typeof value === 'object' && value !== null) {
    const { name, message } = value as { name?: unknown; message?: unknown };
    if (typeof name === 'string') return name;
    if (typeof message === 'string') return message;
  }
  return JSON.stringify(value);
}

/**
 * The controllers' log lines about one NodePool's claims and Nodes, merged in time order, one
 * line each: `<time> <identity> <message> key=value...`. Pure. A line is about the pool when it
 * names the pool, one of its claims or Nodes, or (disruption) a Node or replacement of it; the
 * claim and Node names grow from the `created nodeclaim` and `registered nodeclaim` lines, so
 * claims nobody saw in the cluster still count.
 */
export function claimTrail(logs: readonly ControllerLog[], subject: TrailSubject): string[] {
  const claims = new Set(subject.nodeClaims ?? []);
  const nodes = new Set(subject.nodes ?? []);
  const relevant = logs.flatMap((log) =>
    log.entries.filter((e) => isTrailMessage(e.message)).map((entry) => ({ identity: log.identity, entry })),
  );
  for (const { entry } of relevant) {
    const claim = refName(entry, 'NodeClaim');
    if (claim !== undefined && refName(entry, 'NodePool') === subject.nodePool) claims.add(claim);
  }
  for (const { entry } of relevant) {
    const claim = refName(entry, 'NodeClaim');
    const node = refName(entry, 'Node');
    if (claim !== undefined && node !== undefined && claims.has(claim)) nodes.add(node);
  }
  const about = (entry: LogEntry): boolean => {
    const claim = refName(entry, 'NodeClaim');
    const node = refName(entry, 'Node');
    return (
      refName(entry, 'NodePool') === subject.nodePool ||
      (claim !== undefined && claims.has(claim)) ||
      (node !== undefined && nodes.has(node)) ||
      names(entry.candidates).some((n) => nodes.has(n)) ||
      names(entry.replacements).some((n) => claims.has(n))
    );
  };
  return relevant
    .filter(({ entry }) => about(entry))
    .map(({ identity, entry }) => ({
      identity,
      entry,
      time: typeof entry.time === 'string' ? entry.time : '',
    }))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
    .map(({ identity, entry, time }) => {
      const details = DetailKeys.filter((k) => entry[k] !== undefined).map((k) => `${k}=${detail(entry[k])}`);
      return [time || '-', identity, entry.message, ...details].join(' ');
    });
}

/**
 * claimTrail as a paragraph for an assertion's message: a heading naming the pool and the
 * controllers, then the lines (the last `limit` of them, saying how many were left out).
 */
export function formatClaimTrail(logs: readonly ControllerLog[], subject: TrailSubject, limit = 80): string {
  const lines = claimTrail(logs, subject);
  const who = logs.map((l) => l.identity).join(', ');
  if (lines.length === 0) return `no log lines about NodePool ${subject.nodePool} from ${who}`;
  const shown = lines.slice(-limit);
  const omitted = lines.length - shown.length;
  return [
    `log lines about NodePool ${subject.nodePool} from ${who}${omitted > 0 ? ` (first ${omitted} left out)` : ''}:`,
    ...shown.map((l) => `  ${l}`),
  ].join('\n');
}
