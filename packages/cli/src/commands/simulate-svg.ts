import { type AxisTicks, hourTicks, niceTicks } from '../format/index.js';

/** Escapes text for HTML and SVG content and attribute values. */
export const escapeHtml = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The plot area of a report chart, x from 0 to `maxX` and y from 0 to `maxY`. */
export interface ChartFrame {
  readonly width: number;
  readonly height: number;
  readonly pad: { readonly l: number; readonly r: number; readonly t: number; readonly b: number };
  readonly maxX: number;
  readonly maxY: number;
  /** The SVG x of an x value. */
  x(value: number): number;
  /** The SVG y of a y value. */
  y(value: number): number;
}

/**
 * A 760 x 240 frame with room for tick labels and axis titles; both maxima are kept above zero
 * so an empty run still draws.
 */
export function chartFrame(maxX: number, maxY: number): ChartFrame {
  const width = 760;
  const height = 240;
  const pad = { l: 72, r: 16, t: 30, b: 44 };
  const mx = Math.max(maxX, 1e-9);
  const my = Math.max(maxY, 1e-9);
  return {
    width,
    height,
    pad,
    maxX: mx,
    maxY: my,
    x: (v) => pad.l + (v / mx) * (width - pad.l - pad.r),
    y: (v) => height - pad.b - (v / my) * (height - pad.t - pad.b),
  };
}

/** How a chart's axes are ticked, labelled and titled. */
export interface ChartAxes {
  readonly x: AxisTicks;
  readonly y: AxisTicks;
  /** A y tick's label; gets the tick's step so it shows just the decimals needed. */
  readonly formatY: (v: number, step: number) => string;
  readonly formatX: (v: number, step: number) => string;
  /** The axis titles, with their units ("hours since the start", "$ per hour"). */
  readonly xTitle: string;
  readonly yTitle: string;
}

/** Grid lines and labels at every tick of both axes, and the two axis titles. */
export function chartAxes(f: ChartFrame, axes: ChartAxes): string {
  const ys = axes.y.values
    .map((v) => {
      const y = f.y(v).toFixed(1);
      return `<text x="${f.pad.l - 6}" y="${(f.y(v) + 4).toFixed(1)}" text-anchor="end">${escapeHtml(axes.formatY(v, axes.y.step))}</text><line x1="${f.pad.l}" x2="${f.width - f.pad.r}" y1="${y}" y2="${y}" stroke="#eee"/>`;
    })
    .join('');
  const bottom = f.height - f.pad.b;
  const xs = axes.x.values
    .map(
      (v) =>
        `<text x="${f.x(v).toFixed(1)}" y="${bottom + 15}" text-anchor="middle">${escapeHtml(axes.formatX(v, axes.x.step))}</text><line x1="${f.x(v).toFixed(1)}" x2="${f.x(v).toFixed(1)}" y1="${bottom}" y2="${bottom + 4}" stroke="#999"/>`,
    )
    .join('');
  const middle = (f.pad.t + bottom) / 2;
  const titles =
    `<text class="axis-title" x="${(f.pad.l + f.width - f.pad.r) / 2}" y="${f.height - 6}" text-anchor="middle" fill="#555">${escapeHtml(axes.xTitle)}</text>` +
    `<text class="axis-title" x="14" y="${middle}" text-anchor="middle" fill="#555" transform="rotate(-90 14 ${middle})">${escapeHtml(axes.yTitle)}</text>`;
  const frame = `<line x1="${f.pad.l}" x2="${f.width - f.pad.r}" y1="${bottom}" y2="${bottom}" stroke="#999"/>`;
  return ys + xs + frame + titles;
}

/** A titled inline SVG of the frame's size holding `body`: no scripts, nothing fetched. */
export function chartSvg(title: string, f: ChartFrame, body: string): string {
  return `<h2>${escapeHtml(title)}</h2><svg viewBox="0 0 ${f.width} ${f.height}" width="${f.width}" height="${f.height}" font-size="11" font-family="sans-serif">${body}</svg>`;
}

/** One entry of a chart's legend: its swatch drawn as the line (or bar) it stands for. */
export interface LegendEntry {
  readonly label: string;
  readonly colour: string;
  readonly dashed?: boolean;
  /** A filled square (bars) instead of a line sample. */
  readonly box?: boolean;
}

/** The legend along the chart's top, each entry as wide as its label needs. */
export function chartLegend(f: ChartFrame, entries: readonly LegendEntry[]): string {
  let x = f.pad.l;
  return entries
    .map((e) => {
      const swatch =
        e.box === true
          ? `<rect x="${x}" y="8" width="12" height="10" fill="${e.colour}"${e.dashed === true ? ' fill-opacity="0.45"' : ''}/>`
          : `<line x1="${x}" x2="${x + 18}" y1="13" y2="13" stroke="${e.colour}" stroke-width="2"${e.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`;
      const text = `<text class="legend" x="${x + 22}" y="17">${escapeHtml(e.label)}</text>`;
      // About 6 px a character at 11 px sans-serif, and a gap.
      x += 22 + Math.ceil(e.label.length * 6.2) + 16;
      return swatch + text;
    })
    .join('');
}

/** One line of a line chart: its legend label, colour and (x, y) points in x order. */
export interface ChartLine {
  readonly label: string;
  readonly colour: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
  /** Drawn dashed, in the legend too (a baseline, a bar to stay under). */
  readonly dashed?: boolean;
}

/** A labelled horizontal reference line: a figure the reader should find on the chart. */
export interface ChartMark {
  readonly value: number;
  readonly label: string;
  readonly colour: string;
}

/** How lineChart labels and scales its axes. */
export interface LineChartOptions {
  /** Labels the y ticks; default the plain number. */
  readonly formatY?: (v: number, step: number) => string;
  /** Labels the x ticks; default the plain number. */
  readonly xLabel?: (v: number, step: number) => string;
  /** The x the data ends at, so charts of one run line up; default the largest x of any line. */
  readonly maxX?: number;
  /** `hours`: ticks a clock divides well (default); `decimal`: 1, 2 or 5 x 10^n. */
  readonly xTicks?: 'hours' | 'decimal';
  /** The axis titles with units; x defaults to "hours since the start". */
  readonly xTitle?: string;
  readonly yTitle?: string;
  /** The y axis's end when it has a natural one (1 for a share); default the data's. */
  readonly maxY?: number;
  /** The smallest y step: 1 for things counted whole (nodes, pods). */
  readonly minStepY?: number;
  /** Reference lines drawn across the chart, the y axis reaching them. */
  readonly marks?: readonly ChartMark[];
}

/**
 * A titled inline SVG line chart: x from 0, y from 0, both axes ticked at round steps up to the
 * data's end (or `maxX`/`maxY`), with axis titles and a legend drawing each line as it is drawn.
 * No scripts, nothing fetched.
 */
export function lineChart(
  title: string,
  lines: readonly ChartLine[],
  options: LineChartOptions = {},
): string {
  const xs = lines.flatMap((l) => l.points.map(([x]) => x));
  const dataX = options.maxX ?? (xs.length === 0 ? 1 : Math.max(...xs));
  const dataY =
    options.maxY ??
    Math.max(
      0,
      ...lines.flatMap((l) => l.points.map(([, y]) => y)),
      ...(options.marks ?? []).map((m) => m.value),
    );
  const xTicks = options.xTicks === 'decimal' ? niceTicks(dataX, { maxTicks: 8 }) : hourTicks(dataX);
  const yTicks = niceTicks(dataY, { minStep: options.minStepY ?? 0 });
  const f = chartFrame(xTicks.max, yTicks.max);
  const paths = lines
    .map((l) => {
      const d = l.points
        .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${f.x(x).toFixed(1)},${f.y(y).toFixed(1)}`)
        .join('');
      const dash = l.dashed === true ? ' stroke-dasharray="5 3"' : '';
      return `<path d="${d}" fill="none" stroke="${l.colour}" stroke-width="1.6"${dash}/>`;
    })
    .join('');
  const marks = (options.marks ?? [])
    .map((m) => {
      const y = f.y(m.value).toFixed(1);
      return `<line class="mark" x1="${f.pad.l}" x2="${f.width - f.pad.r}" y1="${y}" y2="${y}" stroke="${m.colour}" stroke-dasharray="1 3"/><text class="mark" x="${f.width - f.pad.r - 2}" y="${(f.y(m.value) - 3).toFixed(1)}" text-anchor="end" fill="${m.colour}">${escapeHtml(m.label)}</text>`;
    })
    .join('');
  const axes = chartAxes(f, {
    x: xTicks,
    y: yTicks,
    formatY: options.formatY ?? ((v) => String(v)),
    formatX: options.xLabel ?? ((v) => String(v)),
    xTitle: options.xTitle ?? 'hours since the start',
    yTitle: options.yTitle ?? '',
  });
  return chartSvg(title, f, axes + paths + marks + chartLegend(f, lines));
}
