import { addCounts, type FleetSample } from '@nodewright/core/simulation';
import { hourTicks, niceTicks } from '../format/index.js';
import { chartAxes, chartFrame, chartLegend, chartSvg, escapeHtml } from './simulate-svg.js';

/** Disruptions in one stretch of simulated time, `from` inclusive to `to`, by reason. */
export interface DisruptionBucket {
  readonly from: number;
  readonly to: number;
  readonly counts: Readonly<Record<string, number>>;
}

/** Bucket widths the chart may use, in hours: 5, 10, 15, 30 min, then whole hours. */
const NiceHours = [1 / 12, 1 / 6, 1 / 4, 1 / 2, 1, 2, 3, 6, 12, 24, 48, 168];

/** The narrowest nice bucket width (hours) that cuts `hours` into at most `maxBuckets` (pure). */
export function bucketHours(hours: number, maxBuckets = 48): number {
  return NiceHours.find((w) => hours / w <= maxBuckets + 1e-9) ?? Math.ceil(hours / maxBuckets);
}

/**
 * The series' disruptions summed per bucket of `width` hours over `0..hours` (pure). A sample
 * holds what happened since the one before, so a sample at a bucket's end belongs to that
 * bucket, not the next.
 */
export function disruptionBuckets(
  series: readonly FleetSample[],
  width: number,
  hours: number,
): DisruptionBucket[] {
  const n = Math.max(1, Math.ceil(hours / width - 1e-9));
  const parts: Readonly<Record<string, number>>[][] = Array.from({ length: n }, () => []);
  for (const s of series) {
    if (Object.keys(s.disruptions).length === 0) continue;
    const i = Math.min(n - 1, Math.max(0, Math.ceil(s.hour / width - 1e-9) - 1));
    parts[i]!.push(s.disruptions);
  }
  return parts.map((p, i) => ({ from: i * width, to: (i + 1) * width, counts: addCounts(p) }));
}

/** Karpenter's reasons in the order a reader meets them; others follow alphabetically. */
const ReasonColours: Readonly<Record<string, string>> = {
  empty: '#95a5a6',
  underutilized: '#2980b9',
  drifted: '#8e44ad',
  expired: '#d35400',
  interruption: '#c0392b',
};
const OtherColours = ['#16a085', '#f39c12', '#2c3e50', '#27ae60', '#e84393'];

/** The reasons present, known ones first, each with its colour (pure). */
export function reasonColours(reasons: Iterable<string>): [string, string][] {
  const present = new Set(reasons);
  const known = Object.keys(ReasonColours).filter((r) => present.has(r));
  const others = [...present].filter((r) => ReasonColours[r] === undefined).sort();
  return [
    ...known.map((r): [string, string] => [r, ReasonColours[r]!]),
    ...others.map((r, i): [string, string] => [r, OtherColours[i % OtherColours.length]!]),
  ];
}

const span = (h: number) => (h < 1 ? `${Math.round(h * 60)} min` : `${h} h`);

const clock = (h: number) => {
  const minutes = Math.round(h * 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
};

/** One run's disruptions, labelled; the baseline's are drawn lighter, beside nodewright's. */
export interface DisruptionRun {
  readonly label: string;
  readonly series: readonly FleetSample[];
}

/**
 * Disruptions by reason over time as stacked bars per time bucket, one bar per run (nodewright
 * solid, the baseline lighter to its right), each segment titled with its run, time and count.
 * Inline SVG only.
 */
export function disruptionChart(runs: readonly DisruptionRun[]): string {
  const hours = Math.max(1e-9, ...runs.map((r) => r.series.at(-1)?.hour ?? 0));
  const width = bucketHours(hours);
  const buckets = runs.map((r) => disruptionBuckets(r.series, width, hours));
  const colours = reasonColours(buckets.flat().flatMap((b) => Object.keys(b.counts)));
  const total = (b: DisruptionBucket) => Object.values(b.counts).reduce((a, v) => a + v, 0);
  const highest = Math.max(0, ...buckets.flat().map(total));
  const yTicks = niceTicks(highest, { minStep: 1 });
  const xTicks = hourTicks(Math.ceil(hours / width - 1e-9) * width);
  const f = chartFrame(xTicks.max, yTicks.max);
  const share = 0.8 / runs.length;
  const bars = buckets
    .flatMap((run, r) =>
      run.map((b) => {
        const slot = f.x(b.to) - f.x(b.from);
        const x = f.x(b.from) + slot * (0.1 + r * share);
        let base = 0;
        return colours
          .filter(([reason]) => (b.counts[reason] ?? 0) > 0)
          .map(([reason, colour]) => {
            const n = b.counts[reason]!;
            const top = f.y(base + n);
            const h = f.y(base) - top;
            base += n;
            const light = r === 0 ? '' : ` fill-opacity="0.45" stroke="${colour}" stroke-width="0.8"`;
            const title = `${runs[r]!.label} ${clock(b.from)}–${clock(b.to)}: ${reason} ${n}`;
            return `<rect class="disruption" data-run="${r}" data-reason="${escapeHtml(reason)}" data-count="${n}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${(slot * share).toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"${light}><title>${escapeHtml(title)}</title></rect>`;
          })
          .join('');
      }),
    )
    .join('');
  const legend = chartLegend(
    f,
    colours.map(([reason, colour]) => ({ label: reason, colour, box: true })),
  );
  const none =
    highest === 0
      ? `<text x="${(f.pad.l + f.width - f.pad.r) / 2}" y="${f.height / 2}" text-anchor="middle" fill="#888">no disruptions</text>`
      : '';
  const note =
    runs.length > 1
      ? `<p class="note">Each pair of bars counts the nodes disrupted in ${span(width)}, stacked by reason: ${runs.map((r, i) => `${i === 0 ? 'left' : 'right (lighter)'} ${escapeHtml(r.label)}`).join(', ')}.</p>`
      : `<p class="note">Each bar counts the nodes disrupted in ${span(width)}, stacked by reason.</p>`;
  const axes = chartAxes(f, {
    x: xTicks,
    y: yTicks,
    formatY: (v) => String(v),
    formatX: (v) => String(v),
    xTitle: 'hours since the start',
    yTitle: `nodes disrupted per ${span(width)}`,
  });
  return `${chartSvg('Disruptions by reason', f, axes + bars + legend + none)}${note}`;
}
