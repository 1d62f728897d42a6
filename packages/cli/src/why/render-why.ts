import { formatPerHour, plural } from '../format/index.js';
import type { ObjectEvent } from '../live/recent-events.js';
import type { WhyNodeReport } from './why-node.js';
import type { NodePoolVerdict, WhyPodReport } from './why-pod.js';

const VerdictWords: Readonly<Record<NodePoolVerdict['verdict'], string>> = {
  'ruled-out': 'ruled out',
  'not-used': 'not used',
  chosen: 'chosen',
  'not-needed': 'not needed',
};

/** `why pod` for people: the verdict, a table of NodePools, existing nodes, the cheapest fit, notes. */
export function renderWhyPodText(report: WhyPodReport): string {
  const lines = [`Pod ${report.pod}: ${report.summary}`, ''];
  if (report.nodePools.length > 0) {
    const width = Math.max(8, ...report.nodePools.map((p) => p.nodePool.length));
    lines.push(`${'NODEPOOL'.padEnd(width)}  ${'VERDICT'.padEnd(10)}  REASON`);
    for (const p of report.nodePools)
      lines.push(`${p.nodePool.padEnd(width)}  ${VerdictWords[p.verdict].padEnd(10)}  ${p.reason}`);
    lines.push('');
  }
  if (report.nodeClaim !== undefined) {
    const c = report.nodeClaim;
    lines.push(
      `NodeClaim from NodePool ${c.nodePool}: ${formatPerHour(c.price)}, ${plural(c.instanceTypes.length, 'instance type')} (${c.instanceTypes.slice(0, 5).join(', ')}${c.instanceTypes.length > 5 ? ', ...' : ''})`,
      '',
    );
  }
  if (report.existingNodes !== undefined) lines.push(`Existing nodes: ${report.existingNodes}`);
  for (const o of report.other) lines.push(`Also: ${o}`);
  if (report.existingNodes !== undefined || report.other.length > 0) lines.push('');
  const pending = report.verdict !== 'bound' && report.verdict !== 'ignored';
  if (pending) {
    const f = report.cheapestFit;
    lines.push(
      f === null
        ? `Cheapest fit: none: no instance type of the catalogs holds it, whatever the NodePool (${report.cheapestFitReason ?? 'no reason given'})`
        : `Cheapest fit: ${f.instanceType} in ${f.zone} (${f.capacityType}) at ${formatPerHour(f.pricePerHour)}, if a NodePool allowed it`,
      '',
    );
  }
  lines.push(...eventLines(report.events), '');
  for (const note of report.notes) lines.push(`Note: ${note}`);
  if (report.notes.length > 0) lines.push('');
  return `${lines.join('\n').trim()}\n`.replace(/\n{3,}/g, '\n\n');
}

/** `Events:` and one line per event, oldest first; nothing when there are none. */
function eventLines(events: readonly ObjectEvent[] | undefined): string[] {
  if (events === undefined || events.length === 0) return [];
  return [
    'Events:',
    ...events.map(
      (e) =>
        `  ${e.lastTimestamp}  ${e.type.padEnd(7)}  ${e.reason}${e.count > 1 ? ` (x${e.count})` : ''}  ${e.source}: ${e.message}`,
    ),
  ];
}

/** `why node` for people: the verdict, then the facts it rests on, one per line. */
export function renderWhyNodeText(report: WhyNodeReport): string {
  const pool = report.nodePool === null ? '' : ` (NodePool ${report.nodePool})`;
  const lines = [`Node ${report.node}${pool}: ${report.summary}`];
  const d = report.disruption;
  if (d !== undefined) {
    lines.push(`  disruptable:   ${d.disruptable ? `yes, for ${d.reasons.join(', ')}` : 'no'}`);
    if (d.blockedBy !== undefined) lines.push(`  blocked by:    ${d.blockedBy}`);
    if (d.note !== undefined) lines.push(`  tried:         ${d.note}`);
    if (d.drifted !== undefined) lines.push(`  drifted:       ${d.drifted}`);
    lines.push(
      `  price:         ${d.pricePerHour === undefined ? 'unknown' : formatPerHour(d.pricePerHour)}`,
    );
  }
  const c = report.command;
  if (c !== undefined) {
    lines.push(
      `  command:       ${c.method} (${c.reason}) of ${c.candidates.join(', ')}, saves ${formatPerHour(c.savingsPerHour)}`,
    );
    for (const [i, r] of c.replacements.entries())
      lines.push(
        `  replacement ${i}: NodePool ${r.nodePool}, ${formatPerHour(r.price)}, ${r.instanceTypes.slice(0, 5).join(', ')}`,
      );
  }
  if (report.consolidation !== undefined)
    lines.push(
      `  consolidation: ${report.consolidation.policy}, consolidateAfter ${report.consolidation.consolidateAfter}`,
    );
  for (const b of report.budgets)
    lines.push(
      `  budget:        ${b.reason}: ${b.allowed === null ? 'unlimited' : `${b.allowed} more`} of ${plural(b.nodes, 'node')} may be disrupted now`,
    );
  lines.push(`  at:            ${report.now}`);
  lines.push(...eventLines(report.events));
  for (const note of report.notes) lines.push(`Note: ${note}`);
  return `${lines.join('\n')}\n`;
}
