import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One query of one dashboard panel, as Grafana runs it. */
export interface PanelQuery {
  /** The dashboard's file name without `.json`. */
  readonly dashboard: string;
  readonly panel: string;
  readonly refId: string;
  readonly expr: string;
  /** Grafana's legend template (`{{label}}`); empty for none. */
  readonly legend: string;
}

/** A panel and its queries, in dashboard order. */
export interface DashboardPanel {
  readonly dashboard: string;
  readonly title: string;
  readonly unit: string;
  readonly queries: readonly PanelQuery[];
}

interface GrafanaTarget {
  readonly refId?: string;
  readonly expr?: string;
  readonly legendFormat?: string;
}
interface GrafanaPanel {
  readonly title?: string;
  readonly type?: string;
  readonly targets?: readonly GrafanaTarget[];
  readonly panels?: readonly GrafanaPanel[];
  readonly fieldConfig?: { readonly defaults?: { readonly unit?: string } };
}

/**
 * The panels of one Grafana dashboard JSON (rows' nested panels included) with their PromQL.
 * @throws when a panel has no title or a target has no expression: nothing a test could check.
 */
export function dashboardPanels(dashboard: string, json: unknown): DashboardPanel[] {
  const root = json as { readonly panels?: readonly GrafanaPanel[] };
  const flat = (root.panels ?? []).flatMap((p) => (p.type === 'row' ? (p.panels ?? []) : [p]));
  return flat.map((p) => {
    if (!p.title) throw new Error(`${dashboard}: a panel has no title`);
    const title = p.title;
    const queries = (p.targets ?? []).map((t, i) => {
      if (!t.expr) throw new Error(`${dashboard} / ${title}: target ${i} has no expr`);
      return {
        dashboard,
        panel: title,
        refId: t.refId ?? String(i),
        expr: t.expr,
        legend: t.legendFormat ?? '',
      };
    });
    if (queries.length === 0) throw new Error(`${dashboard} / ${title}: the panel has no query`);
    return { dashboard, title, unit: p.fieldConfig?.defaults?.unit ?? '', queries };
  });
}

/** Where the Grafana dashboards live in the repository. */
export const DashboardsDir = new URL('../../../../deploy/grafana/', import.meta.url).pathname;

/** Every dashboard in `dir` (default deploy/grafana), by file name. */
export function loadDashboards(dir: string = DashboardsDir): DashboardPanel[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) =>
      dashboardPanels(f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8'))),
    );
}
