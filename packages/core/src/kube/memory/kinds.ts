import { NotFoundError } from '../errors.js';
import { getPath, type JsonObject } from '../json.js';
import { groupOf, type ResourceType, typeKey } from '../resource-type.js';
import { BUILTIN_TYPES } from '../resource-types.js';

/** How the emulated API server treats one kind beyond the generic object rules. */
export interface KindPolicy {
  readonly type: ResourceType;
  /** Served by kube-apiserver itself; custom resources (CRDs) require resourceVersion on update. */
  readonly builtin: boolean;
  /** What `status` becomes on create when the kind has a status subresource: kept, dropped or reset. */
  readonly statusOnCreate: 'keep' | 'drop' | JsonObject;
  /** Pods: deletion waits for the grace period (when the cluster emulates kubelets). */
  readonly gracefulDeletion: boolean;
  /** Field selectors beyond metadata.name/namespace: field -> value reader. */
  readonly fields: Readonly<Record<string, (obj: JsonObject) => string>>;
  /** `subdomain`: lower-case RFC 1123 subdomain; `label`: RFC 1123 label; `segment`: any path segment. */
  readonly names: 'subdomain' | 'label' | 'segment';
  /**
   * Whether the kind's registry strategy sets `metadata.generation` (1 on create, +1 per spec
   * change): custom resources, pods and workloads do; ConfigMaps, Nodes, Namespaces, Events... do not.
   */
  readonly tracksGeneration: boolean;
}

function field(path: string, fallback = ''): (obj: JsonObject) => string {
  const segments = path.split('.');
  return (obj) => {
    const value = getPath(obj, segments);
    return value === undefined || value === null ? fallback : String(value);
  };
}

function fields(...specs: (string | [string, string])[]): Record<string, (obj: JsonObject) => string> {
  const out: Record<string, (obj: JsonObject) => string> = {};
  for (const spec of specs) {
    const [path, fallback] = typeof spec === 'string' ? [spec, ''] : spec;
    out[path] = field(path, fallback);
  }
  return out;
}

/** Built-in kinds whose registry strategy sets `metadata.generation` in PrepareForCreate. */
const GENERATION_TRACKING = new Set([
  'v1/Pod',
  'v1/ReplicationController',
  'apps/v1/Deployment',
  'apps/v1/ReplicaSet',
  'apps/v1/StatefulSet',
  'apps/v1/DaemonSet',
  'batch/v1/Job',
  'policy/v1/PodDisruptionBudget',
]);

/** Per-kind rules of the built-in kinds, after the real API server's registry strategies. */
const BUILTIN_RULES: Record<string, Partial<Omit<KindPolicy, 'type' | 'builtin'>>> = {
  'v1/Pod': {
    statusOnCreate: { phase: 'Pending' },
    gracefulDeletion: true,
    fields: fields(
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      ['spec.hostNetwork', 'false'],
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ),
  },
  'v1/Node': { statusOnCreate: 'keep', fields: fields(['spec.unschedulable', 'false']) },
  'v1/Namespace': { statusOnCreate: { phase: 'Active' }, fields: fields('status.phase'), names: 'label' },
  'v1/Event': {
    fields: fields(
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'type',
    ),
  },
  'v1/Secret': { fields: fields('type') },
  'v1/PersistentVolume': { statusOnCreate: { phase: 'Pending' } },
  'v1/PersistentVolumeClaim': { statusOnCreate: { phase: 'Pending' } },
  'v1/ReplicationController': { fields: fields('status.replicas') },
  'apps/v1/ReplicaSet': { fields: fields('status.replicas') },
  'batch/v1/Job': { fields: fields('status.successful') },
};

function builtinPolicy(type: ResourceType): KindPolicy {
  const rules = BUILTIN_RULES[typeKey(type)] ?? {};
  const eventSource: Record<string, (obj: JsonObject) => string> =
    typeKey(type) === 'v1/Event' ? { source: field('source.component') } : {};
  return {
    type,
    builtin: true,
    statusOnCreate: rules.statusOnCreate ?? 'drop',
    gracefulDeletion: rules.gracefulDeletion ?? false,
    fields: { ...(rules.fields ?? {}), ...eventSource },
    names: rules.names ?? 'subdomain',
    tracksGeneration: GENERATION_TRACKING.has(typeKey(type)),
  };
}

function customPolicy(type: ResourceType): KindPolicy {
  return {
    type,
    builtin: false,
    statusOnCreate: type.statusSubresource ? 'drop' : 'keep',
    gracefulDeletion: false,
    fields: {},
    names: 'segment',
    tracksGeneration: true,
  };
}

/**
 * The kinds the emulated API server serves: the built-in ones plus custom resources
 * registered like installed CRDs. Using any other kind is a 404, as on a real server.
 */
export class ServedKinds {
  readonly #byKey = new Map<string, KindPolicy>();

  constructor(custom: Iterable<ResourceType> = []) {
    for (const type of BUILTIN_TYPES) this.#byKey.set(typeKey(type), builtinPolicy(type));
    for (const type of custom) this.register(type);
  }

  /** Installs a custom kind; re-registering the same definition is a no-op. */
  register(type: ResourceType): KindPolicy {
    const key = typeKey(type);
    const existing = this.#byKey.get(key);
    if (existing !== undefined) {
      if (
        existing.type.namespaced !== type.namespaced ||
        existing.type.statusSubresource !== type.statusSubresource
      ) {
        throw new Error(`kind ${key} is already registered with a different scope or subresources`);
      }
      return existing;
    }
    const policy = customPolicy(type);
    this.#byKey.set(key, policy);
    return policy;
  }

  lookup(apiVersion: string, kind: string): KindPolicy | undefined {
    return this.#byKey.get(`${apiVersion}/${kind}`);
  }

  /**
   * Resolves an owner reference's kind the way the garbage collector does: by group and kind,
   * whatever version the reference names.
   */
  lookupGroupKind(apiVersion: string, kind: string): KindPolicy | undefined {
    const exact = this.lookup(apiVersion, kind);
    if (exact !== undefined) return exact;
    const group = groupOf({ apiVersion });
    return this.all().find((p) => p.type.kind === kind && groupOf(p.type) === group);
  }

  byTypeKey(key: string): KindPolicy | undefined {
    return this.#byKey.get(key);
  }

  /** The policy of a kind, or the 404 a server answers for an unknown resource. */
  require(type: Pick<ResourceType, 'apiVersion' | 'kind'> & Partial<ResourceType>): KindPolicy {
    const policy = this.lookup(type.apiVersion, type.kind);
    if (policy === undefined) {
      throw new NotFoundError('the server could not find the requested resource', {
        group: groupOf(type),
        ...(type.plural === undefined ? {} : { kind: type.plural }),
      });
    }
    return policy;
  }

  all(): KindPolicy[] {
    return [...this.#byKey.values()];
  }
}
