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
export { PrometheusApi, type PromSeries } from './prometheus-api.js';
export {
  EnsureDockerScript,
  ensurePrometheusImage,
  PrometheusContainer,
  type PrometheusContainerSpec,
  PrometheusDockerfile,
} from './prometheus-container.js';
export {
  type PreparedPrometheus,
  PrometheusProcess,
  type PrometheusSpec,
  preparePrometheus,
  prometheusConfig,
} from './prometheus-process.js';
export { promqlMetricNames } from './promql-metrics.js';
export { queryPanels, readSnapshotPanels, type SnapshotRun, saveSnapshot } from './snapshot.js';
export { type PrometheusRuntime, type RunningPrometheus, startPrometheus } from './start-prometheus.js';
