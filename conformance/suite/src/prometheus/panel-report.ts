import { escapeHtml, lineChart } from '@nodewright/cli';
import type { DashboardPanel } from './dashboards.js';
import type { PromSeries } from './prometheus-api.js';

/** One panel's range-query results, one list per query in panel order. */
export interface RenderedPanel {
  readonly panel: DashboardPanel;
  readonly series: readonly (readonly PromSeries[])[];
}

const Colours = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];

/** Grafana's legend: `{{label}}` replaced by the series' label, or the labels when none is given. */
export function legendOf(template: string, metric: Readonly<Record<string, string>>): string {
  if (template === '') {
    const labels = Object.entries(metric).filter(([k]) => k !== '__name__');
    return labels.length === 0 ? (metric.__name__ ?? 'value') : labels.map(([k, v]) => `${k}=${v}`).join(' ');
  }
  return template
    .replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, label: string) => metric[label] ?? '')
    .trim();
}

/**
 * A self-contained HTML page (inline SVG, no scripts) with one line chart per panel: the
 * sections of renderPanelSections under a title and an introduction.
 */
export function renderPanelsHtml(
  title: string,
  intro: string,
  start: number,
  panels: readonly RenderedPanel[],
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:820px;margin:2em auto}${PanelStyle}</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(intro)}</p>
${renderPanelSections(start, panels)}
</body></html>
`;
}

/** The CSS renderPanelSections' markup needs, for a page that embeds the sections. */
export const PanelStyle =
  'p.q{font-size:11px;color:#555;margin:0 0 2em}h2.dash{border-bottom:2px solid #333;margin-top:2em}';

/**
 * HTML (inline SVG, no scripts) with one line chart per panel, x in seconds since `start`,
 * under a heading per dashboard, each chart followed by its queries. NaN points (a quantile
 * with no observations in its window) are left out.
 */
export function renderPanelSections(start: number, panels: readonly RenderedPanel[]): string {
  const end = Math.max(
    1,
    ...panels.flatMap((p) => p.series.flatMap((qs) => qs.flatMap((s) => s.values.map(([t]) => t - start)))),
  );
  const sections: string[] = [];
  let dashboard = '';
  for (const { panel, series } of panels) {
    if (panel.dashboard !== dashboard) {
      dashboard = panel.dashboard;
      sections.push(`<h2 class="dash">Dashboard: ${escapeHtml(dashboard)}</h2>`);
    }
    let colour = 0;
    const lines = series.flatMap((qs, i) =>
      qs.map((s) => ({
        label: legendOf(panel.queries[i]?.legend ?? '', s.metric),
        colour: Colours[colour++ % Colours.length] as string,
        points: s.values.filter(([, v]) => Number.isFinite(v)).map(([t, v]) => [t - start, v] as const),
      })),
    );
    const exprs = panel.queries.map((q) => `<code>${escapeHtml(q.expr)}</code>`).join('<br>');
    sections.push(
      lineChart(panel.title, lines, {
        maxX: end,
        xTicks: 'decimal',
        xLabel: (v) => `${Math.round(v)} s`,
        xTitle: 'seconds since the run started',
        yTitle: panel.unit,
        formatY: (v) => (Math.abs(v) >= 1000 ? v.toExponential(1) : String(Number(v.toPrecision(3)))),
      }),
      `<p class="q">${exprs}</p>`,
    );
  }
  return sections.join('\n');
}
