/** Escapes text for HTML and SVG content and attribute values. */
export const escapeHtml = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The plot area of a report chart, with hours along x and `0..maxY` up y. */
export interface ChartFrame {
  readonly width: number;
  readonly height: number;
  readonly pad: { readonly l: number; readonly r: number; readonly t: number; readonly b: number };
  readonly maxX: number;
  readonly maxY: number;
  /** The SVG x of an hour. */
  x(hour: number): number;
  /** The SVG y of a value. */
  y(value: number): number;
}

/** A 760 x 220 frame; both maxima are kept above zero so an empty run still draws. */
export function chartFrame(maxX: number, maxY: number): ChartFrame {
  const width = 760;
  const height = 220;
  const pad = { l: 56, r: 12, t: 28, b: 28 };
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

/** Grid lines and value labels at `fractions` of maxY, and seven labels along x (hours by default). */
export function chartAxes(
  f: ChartFrame,
  format: (v: number) => string,
  fractions: readonly number[] = [0, 0.25, 0.5, 0.75, 1],
  xLabel: (v: number) => string = (v) => `${v.toFixed(1)}h`,
): string {
  const ticks = fractions
    .map((fr) => {
      const y = f.y(f.maxY * fr);
      return `<text x="${f.pad.l - 6}" y="${y + 4}" text-anchor="end">${escapeHtml(format(f.maxY * fr))}</text><line x1="${f.pad.l}" x2="${f.width - f.pad.r}" y1="${y}" y2="${y}" stroke="#eee"/>`;
    })
    .join('');
  const hours = Array.from({ length: 7 }, (_, i) => (f.maxX * i) / 6)
    // The last label ends at the plot's edge, so it is not cut off by the frame.
    .map(
      (v, i) =>
        `<text x="${f.x(v)}" y="${f.height - 8}" text-anchor="${i === 6 ? 'end' : 'middle'}">${escapeHtml(xLabel(v))}</text>`,
    )
    .join('');
  return ticks + hours;
}

/** A titled inline SVG of the frame's size holding `body`: no scripts, nothing fetched. */
export function chartSvg(title: string, f: ChartFrame, body: string): string {
  return `<h2>${escapeHtml(title)}</h2><svg viewBox="0 0 ${f.width} ${f.height}" width="${f.width}" height="${f.height}" font-size="11" font-family="sans-serif">${body}</svg>`;
}

/** One line of a line chart: its legend label, colour and (x, y) points in x order. */
export interface ChartLine {
  readonly label: string;
  readonly colour: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
  /** Drawn dashed, its legend swatch paler (a baseline, a bar to stay under). */
  readonly dashed?: boolean;
}

/** How lineChart labels and scales its axes. */
export interface LineChartOptions {
  /** Labels the value grid; default the plain number. */
  readonly formatY?: (v: number) => string;
  /** Labels the seven x labels; default hours (`1.5h`). */
  readonly xLabel?: (v: number) => string;
  /** The x the chart ends at, so charts of one run line up; default the largest x of any line. */
  readonly maxX?: number;
}

/**
 * A titled inline SVG line chart: x from 0 to `maxX` (default the largest x of any line), y
 * from 0 to the largest y. No scripts, nothing fetched.
 */
export function lineChart(
  title: string,
  lines: readonly ChartLine[],
  options: LineChartOptions = {},
): string {
  const xs = lines.flatMap((l) => l.points.map(([x]) => x));
  const f = chartFrame(
    options.maxX ?? (xs.length === 0 ? 1 : Math.max(...xs)),
    Math.max(0, ...lines.flatMap((l) => l.points.map(([, y]) => y))),
  );
  const paths = lines
    .map((l) => {
      const d = l.points
        .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${f.x(x).toFixed(1)},${f.y(y).toFixed(1)}`)
        .join('');
      const dash = l.dashed === true ? ' stroke-dasharray="5 3"' : '';
      return `<path d="${d}" fill="none" stroke="${l.colour}" stroke-width="1.6"${dash}/>`;
    })
    .join('');
  const legend = lines
    .map(
      (l, i) =>
        `<rect x="${f.pad.l + i * 120}" y="8" width="10" height="10" fill="${l.colour}"${l.dashed === true ? ' fill-opacity="0.45"' : ''}/><text x="${f.pad.l + 14 + i * 120}" y="17">${escapeHtml(l.label)}</text>`,
    )
    .join('');
  const formatY = options.formatY ?? ((v: number) => String(v));
  const axes =
    options.xLabel === undefined ? chartAxes(f, formatY) : chartAxes(f, formatY, undefined, options.xLabel);
  return chartSvg(title, f, axes + paths + legend);
}
