import { Gauge, type Registry } from 'prom-client';

/**
 * `karpenter_build_info{version,nodeversion} 1`, as Karpenter exports it (with `goversion`
 * there): a dashboard joins on it to show which release each replica runs.
 */
export function buildInfo(registry: Registry, version: string, nodeVersion: string): void {
  const gauge = new Gauge({
    name: 'karpenter_build_info',
    help: "A metric with a constant '1' value labeled by version from which nodewright was built.",
    labelNames: ['version', 'nodeversion'],
    registers: [registry],
  });
  gauge.set({ version, nodeversion: nodeVersion }, 1);
}
