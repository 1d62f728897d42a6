import { Counter, Histogram, type Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import type { CloudProvider } from './cloud-provider.js';

/** The provider methods that reach the cloud, and so are timed and counted. */
const TIMED_METHODS = ['create', 'delete', 'get', 'list', 'getInstanceTypes', 'isDrifted'] as const;
type TimedMethod = (typeof TIMED_METHODS)[number];

/** Where the decorator reports; a registry per operator, never the global one. */
export interface CloudProviderMetrics {
  readonly duration: Histogram<'method' | 'provider'>;
  readonly errors: Counter<'method' | 'provider' | 'error'>;
}

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
  return {
    name: provider.name,
    create: timed('create'),
    delete: timed('delete'),
    get: timed('get'),
    list: timed('list'),
    getInstanceTypes: timed('getInstanceTypes'),
    isDrifted: timed('isDrifted'),
    wellKnownLabels: () => provider.wellKnownLabels(),
    repairPolicies: () => provider.repairPolicies(),
    supportedNodeClasses: () => provider.supportedNodeClasses(),
    ...(provider.interruptions !== undefined ? { interruptions: provider.interruptions } : {}),
    // Core's interruption controller finds the provider's cache through this property.
    ...('unavailableOfferings' in provider ? { unavailableOfferings: provider.unavailableOfferings } : {}),
  };
}
