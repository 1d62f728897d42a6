export { BuildPrometheusScript, ensurePrometheus } from './build-prometheus.js';
export {
  type DashboardPanel,
  DashboardsDir,
  dashboardPanels,
  loadDashboards,
  type PanelQuery,
} from './dashboards.js';
export { documentedMetricNames, documentedMetricOf } from './documented-metrics.js';
export {
  legendOf,
  PanelStyle,
  type RenderedPanel,
  renderPanelSections,
  renderPanelsHtml,
} from './panel-report.js';
export {
  PrometheusProcess,
  type PrometheusSpec,
  type PromSeries,
  prometheusConfig,
} from './prometheus-process.js';
export { promqlMetricNames } from './promql-metrics.js';
export { queryPanels, readSnapshotPanels, type SnapshotRun, saveSnapshot } from './snapshot.js';
