import type { PrometheusApi } from './prometheus-api.js';
import { PrometheusContainer } from './prometheus-container.js';
import { PrometheusProcess, type PrometheusSpec } from './prometheus-process.js';

/** How Prometheus runs: the Go-built binary as a process, or an image of it in a container. */
export type PrometheusRuntime = { readonly binary: string } | { readonly image: string };

/** A started Prometheus: its API and how to stop it. */
export type RunningPrometheus = PrometheusApi & { stop(): Promise<void> };

/** Starts Prometheus per `spec` the way `runtime` says; resolves once it is ready. */
export function startPrometheus(
  runtime: PrometheusRuntime,
  spec: Omit<PrometheusSpec, 'binary'>,
): Promise<RunningPrometheus> {
  if ('image' in runtime) {
    const { registry: _registry, ...rest } = spec;
    return PrometheusContainer.start({ ...rest, image: runtime.image });
  }
  return PrometheusProcess.start({ ...spec, binary: runtime.binary });
}
