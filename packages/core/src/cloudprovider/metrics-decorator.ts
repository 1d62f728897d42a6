import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import type { CloudProvider } from './cloud-provider.js';
import type { InstanceType } from './instance-type.js';

/** The provider methods that reach the cloud, and so are timed and counted. */
const TIMED_METHODS = ['create', 'delete', 'get', 'list', 'getInstanceTypes', 'isDrifted'] as const;
type TimedMethod = (typeof TIMED_METHODS)[number];

/** Where the decorator reports; a registry per operator, never the global one. */
export interface CloudProviderMetrics {
  readonly duration: Histogram<'method' | 'provider'>;
  readonly errors: Counter<'method' | 'provider' | 'error'>;
  /** `karpenter_cloudprovider_instance_type_offering_price_estimate`: hourly price per offering. */
  readonly offeringPrice: Gauge<OfferingLabel>;
  /** `karpenter_cloudprovider_instance_type_offering_available`: 1 when the offering can launch now. */
  readonly offeringAvailable: Gauge<OfferingLabel>;
  readonly cpuCores: Gauge<'instance_type'>;
  readonly memoryBytes: Gauge<'instance_type'>;
}

type OfferingLabel = 'instance_type' | 'capacity_type' | 'zone';

export function cloudProviderMetrics(registry: Registry): CloudProviderMetrics {
  return {
    duration: new Histogram({
      name: MetricNames.CloudProviderDuration,
      help: 'Duration of cloud provider method calls.',
      labelNames: ['method', 'provider'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    errors: new Counter({
      name: MetricNames.CloudProviderErrors,
      help: 'Errors returned by cloud provider method calls, by error type.',
      labelNames: ['method', 'provider', 'error'],
      registers: [registry],
    }),
    offeringPrice: new Gauge({
      name: MetricNames.InstanceTypeOfferingPrice,
      help: 'Instance type offering estimated hourly price used when making informed decisions on node cost calculation, based on instance type, capacity type, and zone.',
      labelNames: ['instance_type', 'capacity_type', 'zone'],
      registers: [registry],
    }),
    offeringAvailable: new Gauge({
      name: MetricNames.InstanceTypeOfferingAvailable,
      help: 'Instance type offering availability, based on instance type, capacity type, and zone',
      labelNames: ['instance_type', 'capacity_type', 'zone'],
      registers: [registry],
    }),
    cpuCores: new Gauge({
      name: MetricNames.InstanceTypeCpuCores,
      help: 'VCPUs cores for a given instance type.',
      labelNames: ['instance_type'],
      registers: [registry],
    }),
    memoryBytes: new Gauge({
      name: MetricNames.InstanceTypeMemoryBytes,
      help: 'Memory, in bytes, for a given instance type.',
      labelNames: ['instance_type'],
      registers: [registry],
    }),
  };
}

/**
 * What the catalog gauges show of `types`: names, sizes, and every offering's price and
 * availability, joined into one string. Two catalogs with the same fingerprint set the same
 * series, so recording the second would change nothing. Pure.
 */
export function catalogFingerprint(types: readonly InstanceType[]): string {
  const parts: string[] = [];
  for (const type of types) {
    parts.push(
      type.name,
      String(type.capacity.get('cpu')?.toNumber()),
      String(type.capacity.get('memory')?.toNumber()),
    );
    for (const o of type.offerings)
      parts.push(o.capacityType, o.zone, String(o.price), o.available ? '1' : '0');
  }
  return parts.join('\u0000');
}

/** Records what the provisioner was offered: every offering's price and availability, every type's size. */
function recordCatalog(metrics: CloudProviderMetrics, types: readonly InstanceType[]): void {
  for (const type of types) {
    const cpu = type.capacity.get('cpu');
    const memory = type.capacity.get('memory');
    if (cpu !== undefined) metrics.cpuCores.set({ instance_type: type.name }, cpu.toNumber());
    if (memory !== undefined) metrics.memoryBytes.set({ instance_type: type.name }, memory.toNumber());
    for (const o of type.offerings) {
      const labels = { instance_type: type.name, capacity_type: o.capacityType, zone: o.zone };
      if (Number.isFinite(o.price)) metrics.offeringPrice.set(labels, o.price);
      metrics.offeringAvailable.set(labels, o.available ? 1 : 0);
    }
  }
}

/**
 * Records each NodePool's catalog only when it differs from the one recorded for that pool last
 * time: the provisioner asks on every pass, a large cloud's catalog is thousands of offerings, and
 * setting every gauge again each time cost more than the pass itself. Per pool, because pools
 * with different NodeClasses are offered different catalogs and would otherwise alternate. The
 * same array returned again is taken as unchanged without fingerprinting it (catalogs are
 * immutable values).
 */
function catalogRecorder(
  metrics: CloudProviderMetrics,
): (pool: string, types: readonly InstanceType[]) => void {
  const last = new Map<string, { types: readonly InstanceType[]; fingerprint: string }>();
  return (pool, types) => {
    const before = last.get(pool);
    if (before?.types === types) return;
    const fingerprint = catalogFingerprint(types);
    last.set(pool, { types, fingerprint });
    if (before?.fingerprint === fingerprint) return;
    recordCatalog(metrics, types);
  };
}

/**
 * Wraps any provider so every call to the cloud is timed and every failure counted by its error
 * type (`InsufficientCapacityError`, `NodeClaimNotFoundError`, ...). Behaviour is unchanged:
 * results and errors pass through untouched. `now` returns seconds and is injected so tests
 * can assert exact durations.
 */
export function withMetrics(
  provider: CloudProvider,
  metrics: CloudProviderMetrics,
  now: () => number = () => performance.now() / 1000,
): CloudProvider {
  const timed = <M extends TimedMethod>(method: M): CloudProvider[M] => {
    const fn = provider[method] as (...args: unknown[]) => Promise<unknown>;
    const wrapped = async (...args: unknown[]) => {
      const start = now();
      try {
        return await fn.apply(provider, args);
      } catch (err) {
        const error = err instanceof Error ? err.name : 'unknown';
        metrics.errors.inc({ method, provider: provider.name, error });
        throw err;
      } finally {
        metrics.duration.observe({ method, provider: provider.name }, now() - start);
      }
    };
    return wrapped as CloudProvider[M];
  };
  const timedGetInstanceTypes = timed('getInstanceTypes');
  const record = catalogRecorder(metrics);
  return {
    name: provider.name,
    create: timed('create'),
    delete: timed('delete'),
    get: timed('get'),
    list: timed('list'),
    getInstanceTypes: async (...args: Parameters<CloudProvider['getInstanceTypes']>) => {
      const types = await timedGetInstanceTypes(...args);
      record(args[0]?.metadata?.name ?? '', types);
      return types;
    },
    isDrifted: timed('isDrifted'),
    wellKnownLabels: () => provider.wellKnownLabels(),
    repairPolicies: () => provider.repairPolicies(),
    supportedNodeClasses: () => provider.supportedNodeClasses(),
    ...(provider.interruptions !== undefined ? { interruptions: provider.interruptions } : {}),
    // Core's interruption controller finds the provider's cache through this property.
    ...('unavailableOfferings' in provider ? { unavailableOfferings: provider.unavailableOfferings } : {}),
  };
}
