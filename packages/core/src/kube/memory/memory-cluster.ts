import type { Clock } from '../../clock/clock.js';
import type { DisruptionBudgetStatus, PodDisruptionBudgetLike } from '../disruption-budget.js';
import {
  alreadyExists,
  BadRequestError,
  ConflictError,
  conflict,
  forbidden,
  InvalidError,
  invalid,
  isKubeError,
  isNotFound,
  KubeError,
  NotFoundError,
  notFound,
  STALE_OBJECT_MESSAGE,
  type StatusCause,
} from '../errors.js';
import { EventAggregator, type EventInput } from '../event.js';
import { parseFieldSelector } from '../field-selector.js';
import { cloneJson, isJsonObject, type JsonObject, jsonEqual, toJson } from '../json.js';
import { type FieldOwnership, formatPath } from '../managed-fields.js';
import { applyMergePatch, type MergePatch } from '../merge-patch.js';
import {
  DEFAULT_NAMESPACE,
  formatTime,
  type KubeObject,
  type ObjectKey,
  type Persisted,
  parseTime,
  type UntypedObject,
} from '../object.js';
import { isPodTerminal, type PodLike } from '../pod.js';
import type {
  ApplyOptions,
  ClusterPort,
  DeleteOptions,
  DeleteResult,
  EvictOptions,
  ObjectList,
  PatchOptions,
  SelectorOptions,
  WriteOptions,
} from '../port.js';
import { type ResourceType, typeKey } from '../resource-type.js';
import { Events, Namespaces, Pods } from '../resource-types.js';
import { applyConfiguration, type ManagerContext, recordUpdate } from '../server-side-apply.js';
import { TimeFormatter } from '../time-formatter.js';
import type { Watch, WatchHandler, WatchOptions } from '../watch.js';
import { BudgetSelections } from './budget-selections.js';
import { disruptionStatusOf, evictPod, podsSelectedBy } from './eviction.js';
import type { AdmissionHook, AdmissionRequest, MemoryClusterPlugin } from './extensions.js';
import { ManagedFieldsFreeViews } from './frozen.js';
import { FOREGROUND_FINALIZER, GarbageCollector, ORPHAN_FINALIZER } from './garbage-collector.js';
import { type IdGenerator, SequentialIdGenerator } from './id-generator.js';
import type { ClusterInternals } from './internals.js';
import { type KindPolicy, ServedKinds } from './kinds.js';
import { ManagedFieldsCodec } from './managed-fields-codec.js';
import { NAMESPACE_FINALIZER, NamespaceLifecycle } from './namespace-lifecycle.js';
import { asJson, type Change, ObjectStore, storeKey } from './object-store.js';
import { PodBudgetFacts } from './pod-budget-facts.js';
import { checkPreconditions } from './preconditions.js';
import { compileFilter } from './selectors.js';
import { WatchHub } from './watch-hub.js';
import { WorkTracker } from './work-tracker.js';

/** How to build a MemoryCluster. */
export interface MemoryClusterOptions {
  /** Source of creation/deletion timestamps and managedFields times. */
  readonly clock: Clock;
  /** Source of uids and generateName suffixes; sequential (deterministic) by default. */
  readonly ids?: IdGenerator;
  /** Custom kinds to serve, as if their CRDs were installed. Built-in kinds are always served. */
  readonly kinds?: Iterable<ResourceType>;
  /**
   * When true, deleting a bound, running pod sets `deletionTimestamp` = now + grace period and
   * leaves the pod Terminating until someone (a kubelet plug-in) deletes it with grace 0.
   * When false (default) pods go at once, as with a kubelet that stops containers instantly.
   */
  readonly gracefulPodDeletion?: boolean;
  /** How many changes watches can resume across; older resume points are Gone. Default 10,000. */
  readonly watchHistory?: number;
  /** Field manager recorded for writes that name none. Default `nodewright`. */
  readonly fieldManager?: string;
}

/** The namespaces a fresh API server has. */
const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
/** Namespaces the API server refuses to delete. */
const PROTECTED_NAMESPACES = ['default', 'kube-system', 'kube-public'];
const NAMESPACE_KEY = typeKey(Namespaces);

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

interface Located {
  readonly policy: KindPolicy;
  readonly type: ResourceType;
  readonly typeKey: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly key: string;
}

interface CommitContext {
  readonly manager: string;
  readonly subresource?: 'status';
  /** resourceVersion the object must be at. */
  readonly precondition?: string;
  /** Ownership computed by server-side apply; otherwise derived from the change. */
  readonly owners?: FieldOwnership[];
}

/**
 * An in-memory Kubernetes API server implementing ClusterPort with the semantics controllers
 * depend on: resourceVersion concurrency, generation, finalizers and deletion timestamps,
 * owner-reference garbage collection, namespaces and their termination, the status
 * subresource, merge patch, server-side apply, watches with resume, the Eviction API against
 * PodDisruptionBudgets, and event aggregation.
 *
 * Writes are synchronous inside (each API call is atomic); watch events and background
 * controllers (garbage collector, namespace controller) run on microtasks afterwards.
 * `settled()` waits for all of that. Further control-plane behaviour (scheduler, workload
 * controllers, kubelets) plugs in through `use()` and `addAdmissionHook()`.
 *
 * Simplifications (see also server-side-apply.ts and eviction.ts): no dry run, no
 * pagination, no strategic merge or JSON patch, no conversion between versions of a kind
 * (each apiVersion is stored separately), no schema validation beyond names, owner
 * references and finalizers (add it with an admission hook), pods get no qosClass.
 */
export class MemoryCluster implements ClusterPort {
  readonly clock: Clock;
  readonly #ids: IdGenerator;
  readonly #kinds: ServedKinds;
  readonly #tracker = new WorkTracker();
  readonly #hub: WatchHub;
  readonly #store: ObjectStore;
  readonly #gc: GarbageCollector;
  readonly #namespaces: NamespaceLifecycle;
  readonly #events = new EventAggregator();
  readonly #admission: { hook: AdmissionHook; types: Set<string> | undefined }[] = [];
  readonly #graceful: boolean;
  readonly #manager: string;
  readonly #internals: ClusterInternals;
  readonly #views = new ManagedFieldsFreeViews();
  readonly #managedFields = new ManagedFieldsCodec();
  readonly #time = new TimeFormatter();
  readonly #withoutManagedFields = (object: KubeObject): KubeObject => this.#views.of(object);
  #requests = 0;

  constructor(options: MemoryClusterOptions) {
    this.clock = options.clock;
    this.#ids = options.ids ?? new SequentialIdGenerator();
    this.#kinds = new ServedKinds(options.kinds ?? []);
    this.#graceful = options.gracefulPodDeletion ?? false;
    this.#manager = options.fieldManager ?? 'nodewright';
    this.#hub = new WatchHub(this.#tracker, options.watchHistory ?? 10_000);
    const pods = this.#kinds.require(Pods);
    const nodeNameOf = pods.fields['spec.nodeName']!;
    // The API server's watch cache indexes pods by node: kubelets and drains list a node's pods.
    this.#store = new ObjectStore(
      (change) => this.#onChange(change),
      [{ typeKey: typeKey(Pods), field: 'spec.nodeName', valueOf: (pod) => nodeNameOf(asJson(pod)) }],
    );
    const podFacts = new PodBudgetFacts();
    this.#internals = {
      store: this.#store,
      kinds: this.#kinds,
      clock: this.clock,
      podFacts,
      budgetSelections: new BudgetSelections(this.#store, typeKey(Pods), podFacts),
      update: (type, object, opts) => this.#updateSync(type, object, opts.fieldManager, opts.subresource),
      delete: (type, key, opts) => this.#deleteSync(type, key, opts ?? {}),
    };
    this.#gc = new GarbageCollector(this.#internals, this.#tracker);
    this.#namespaces = new NamespaceLifecycle(this.#internals, this.#tracker);
    for (const name of INITIAL_NAMESPACES) {
      this.#createSync(
        Namespaces,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        'kube-apiserver',
      );
    }
  }

  /** This cluster seen only as the port, to hand to controllers. */
  get port(): ClusterPort {
    return this;
  }

  /**
   * API requests served so far (reads, writes, watches started, evictions, events, peeks): what a
   * simulation costs the in-memory API server, for benchmarks.
   */
  get requestCount(): number {
    return this.#requests;
  }

  /** The resourceVersion of the latest write. */
  get resourceVersion(): string {
    return String(this.#store.revision);
  }

  /** Serves a custom kind from now on, as installing its CRD would. */
  registerKind(type: ResourceType): void {
    this.#kinds.register(type);
  }

  /** Adds an admission hook for the given kinds (all kinds when omitted); returns its removal. */
  addAdmissionHook(hook: AdmissionHook, types?: readonly ResourceType[]): () => void {
    const entry = { hook, types: types === undefined ? undefined : new Set(types.map(typeKey)) };
    this.#admission.push(entry);
    return () => {
      const at = this.#admission.indexOf(entry);
      if (at >= 0) this.#admission.splice(at, 1);
    };
  }

  /** Starts a plug-in; returns the function that stops it. */
  use(plugin: MemoryClusterPlugin): () => void {
    return plugin.start(this);
  }

  /**
   * Resolves once every watch event and background controller step triggered so far has run,
   * including work those steps triggered in turn. Rejects with what watch handlers or
   * controllers threw meanwhile (an AggregateError when there were several).
   */
  async settled(): Promise<void> {
    while (this.#tracker.busy) await this.#tracker.idle();
    const errors = this.#tracker.takeErrors();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(errors, `${errors.length} errors in watch handlers or controllers`);
  }

  /** A PDB's status as the Eviction API computes it at this moment. */
  disruptionStatus(pdb: PodDisruptionBudgetLike): DisruptionBudgetStatus {
    return disruptionStatusOf(this.#internals, pdb);
  }

  /** The stored pods a PDB selects, in the order a list returns them: what its status counts. */
  selectedPods(pdb: PodDisruptionBudgetLike): readonly PodLike[] {
    return podsSelectedBy(this.#internals, pdb);
  }

  // ClusterPort

  async get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): Promise<T> {
    this.#requests++;
    const at = this.#locate(type, key.name, key.namespace);
    const obj = this.#store.get(at.typeKey, at.key);
    if (obj === undefined) throw notFound(at.type, at.name);
    return obj as T;
  }

  async list<T extends KubeObject>(type: ResourceType<T>, options?: SelectorOptions): Promise<ObjectList<T>> {
    this.#requests++;
    const policy = this.#kinds.require(type);
    const items = this.#select(policy, options) as T[];
    return { items, resourceVersion: String(this.#store.revision) };
  }

  /**
   * What `list` returns, without the list's bookkeeping: for plug-ins that only read (the
   * emulated kube-controller-manager's disruption controller lists a namespace's pods on every pod
   * event). The objects are frozen, as everything this cluster returns, and current until the
   * next write.
   */
  peek<T extends KubeObject>(type: ResourceType<T>, options?: SelectorOptions): readonly T[] {
    this.#requests++;
    return this.#select(this.#kinds.require(type), options) as T[];
  }

  /** The objects of a kind the options select, sorted; from a field index where one applies. */
  #select(policy: KindPolicy, options: SelectorOptions | undefined): KubeObject[] {
    const filter = compileFilter(policy, options);
    const key = typeKey(policy.type);
    let candidates: KubeObject[] | undefined;
    if (options?.fieldSelector !== undefined) {
      // compileFilter has refused a selector that does not parse.
      for (const req of parseFieldSelector(options.fieldSelector)) {
        if (req.operator !== '=') continue;
        candidates = this.#store.withField(key, req.field, req.value);
        if (candidates !== undefined) break;
      }
    }
    return sortObjects((candidates ?? this.#store.all(key)).filter(filter));
  }

  watch<T extends KubeObject>(
    type: ResourceType<T>,
    handler: WatchHandler<T>,
    options?: WatchOptions,
  ): Watch {
    this.#requests++;
    const key = typeKey(type);
    const untyped = handler as WatchHandler;
    const view = options?.withoutManagedFields ? this.#withoutManagedFields : undefined;
    try {
      const policy = this.#kinds.require(type);
      const filter = compileFilter(policy, options);
      const rv = options?.resourceVersion;
      if (rv === undefined || rv === '' || rv === '0') {
        const objects = sortObjects(this.#store.all(key).filter(filter));
        return this.#hub.subscribe(
          key,
          filter,
          untyped,
          { kind: 'list', objects, revision: this.#store.revision },
          view,
        );
      }
      const after = Number(rv);
      if (!Number.isSafeInteger(after) || after < 0)
        throw new BadRequestError(`invalid resource version "${rv}"`);
      return this.#hub.subscribe(
        key,
        filter,
        untyped,
        { kind: 'resume', after, revision: this.#store.revision },
        view,
      );
    } catch (err) {
      if (!isKubeError(err)) throw err;
      return this.#hub.subscribe(key, () => false, untyped, { kind: 'fail', error: err });
    }
  }

  async create<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    this.#requests++;
    return this.#createSync(type, object, options?.fieldManager ?? this.#manager) as Persisted<O>;
  }

  async update<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    this.#requests++;
    return this.#updateSync(type, object, options?.fieldManager ?? this.#manager) as Persisted<O>;
  }

  async updateStatus<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>> {
    this.#requests++;
    return this.#updateSync(type, object, options?.fieldManager ?? this.#manager, 'status') as Persisted<O>;
  }

  async patch<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    this.#requests++;
    return this.#patchSync(type, key, patch, options) as T;
  }

  async patchStatus<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T> {
    this.#requests++;
    return this.#patchSync(type, key, patch, options, 'status') as T;
  }

  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;
  async apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    this.#requests++;
    return this.#applySync(type, configuration, options) as T;
  }

  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;
  async applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T> {
    this.#requests++;
    return this.#applySync(type, configuration, options, 'status') as T;
  }

  async delete<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    options?: DeleteOptions,
  ): Promise<DeleteResult<T>> {
    this.#requests++;
    return this.#deleteSync(type, key, options ?? {}) as DeleteResult<T>;
  }

  async evict(key: ObjectKey, options?: EvictOptions): Promise<void> {
    this.#requests++;
    evictPod(this.#internals, key, options);
  }

  async createEvent(event: EventInput): Promise<void> {
    this.#requests++;
    const manager = event.source?.component ?? this.#manager;
    const decision = this.#events.observe(event, this.clock.now());
    if (decision.kind === 'create') {
      this.#createSync(Events, decision.event, manager);
      return;
    }
    try {
      this.#patchSync(
        Events,
        decision.key,
        { count: decision.count, lastTimestamp: decision.lastTimestamp },
        {
          fieldManager: manager,
        },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // The aggregated event is gone (deleted or expired): start a new one.
      this.#events.forget(event);
      const again = this.#events.observe(event, this.clock.now());
      if (again.kind === 'create') this.#createSync(Events, again.event, manager);
    }
  }

  // Internals

  #onChange(change: Change): void {
    // Before the watch fan-out, whose handlers may read a budget's status.
    this.#internals.budgetSelections.observe(change);
    this.#hub.publish(change);
    this.#gc.observe(change);
    this.#namespaces.observe(change);
  }

  #locate(type: ResourceType, name: string | undefined, namespace: string | undefined): Located {
    const policy = this.#kinds.require(type);
    if (name === undefined || name === '') throw new BadRequestError('resource name may not be empty');
    const ns = policy.type.namespaced ? namespace || DEFAULT_NAMESPACE : undefined;
    return {
      policy,
      type: policy.type,
      typeKey: typeKey(policy.type),
      namespace: ns,
      name,
      key: storeKey(ns, name),
    };
  }

  #admit(request: AdmissionRequest): void {
    const key = typeKey(request.type);
    for (const { hook, types } of [...this.#admission]) {
      if (types === undefined || types.has(key)) hook(request);
    }
  }

  #createSync(type: ResourceType, input: KubeObject, manager: string, owners?: FieldOwnership[]): KubeObject {
    const policy = this.#kinds.require(type);
    const obj = toJson(input);
    if (!isRecord(obj.metadata)) obj.metadata = {};
    const meta = obj.metadata;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== '') {
      // kube-apiserver's storage layer raises this as a plain error: a 500 with no reason.
      throw new KubeError(500, 'Unknown', 'resourceVersion should not be set on objects to be created');
    }
    if (policy.type.namespaced) meta.namespace = meta.namespace || DEFAULT_NAMESPACE;
    else delete meta.namespace;
    if (meta.name === undefined || meta.name === '') {
      if (meta.generateName === undefined || meta.generateName === '') {
        throw invalid(policy.type, '', [
          {
            reason: 'FieldValueRequired',
            field: 'metadata.name',
            message: 'Required value: name or generateName is required',
          },
        ]);
      }
      meta.name = `${meta.generateName}${this.#ids.nameSuffix()}`;
    }
    const name = meta.name;
    this.#validateName(policy, name);
    const at = this.#locate(policy.type, name, meta.namespace);
    if (at.namespace !== undefined) {
      const ns = this.#store.get(NAMESPACE_KEY, at.namespace);
      if (ns === undefined) throw notFound(Namespaces, at.namespace);
      if (ns.metadata.deletionTimestamp !== undefined) {
        throw forbidden(
          policy.type,
          name,
          `unable to create new content in namespace ${at.namespace} because it is being terminated`,
        );
      }
    }
    if (this.#store.get(at.typeKey, at.key) !== undefined) throw alreadyExists(policy.type, name);

    obj.apiVersion = policy.type.apiVersion;
    obj.kind = policy.type.kind;
    meta.uid = this.#ids.uid();
    meta.creationTimestamp = this.#time.format(this.clock.now());
    if (policy.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.managedFields;
    const json = obj as unknown as JsonObject;
    if (policy.type.statusSubresource && policy.statusOnCreate !== 'keep') {
      if (policy.statusOnCreate === 'drop') delete json.status;
      else json.status = cloneJson(policy.statusOnCreate);
    }
    if (at.typeKey === NAMESPACE_KEY) {
      const spec = isJsonObject(json.spec) ? json.spec : {};
      if (!Array.isArray(spec.finalizers)) spec.finalizers = [NAMESPACE_FINALIZER];
      json.spec = spec;
    }
    normalizeMetadata(obj);
    this.#validateMetadata(policy.type, obj, undefined);
    this.#admit({ operation: 'CREATE', type: policy.type, object: obj });
    const ownership =
      owners ??
      recordUpdate(
        {},
        json,
        [],
        this.#managerContext(policy.type, manager, 'all', undefined),
        this.#managedFields.path,
      );
    const managed = this.#managedFields.encode(ownership);
    if (managed.length > 0) obj.metadata.managedFields = managed;
    return this.#store.insert(at.typeKey, at.key, obj);
  }

  #updateSync(type: ResourceType, input: KubeObject, manager: string, subresource?: 'status'): KubeObject {
    const obj = toJson(input);
    if (!isRecord(obj.metadata)) throw new BadRequestError('metadata is required');
    const at = this.#locate(type, obj.metadata.name, obj.metadata.namespace);
    this.#requireSubresource(at, subresource);
    const existing = this.#store.get(at.typeKey, at.key);
    if (existing === undefined) throw notFound(at.type, at.name);
    const rv = obj.metadata.resourceVersion;
    if ((rv === undefined || rv === '') && !at.policy.builtin) {
      throw invalid(at.type, at.name, [
        {
          reason: 'FieldValueInvalid',
          field: 'metadata.resourceVersion',
          message: 'Invalid value: 0x0: must be specified for an update',
        },
      ]);
    }
    return this.#commit(at, existing, obj, {
      manager,
      ...(subresource === undefined ? {} : { subresource }),
      ...(rv === undefined || rv === '' ? {} : { precondition: rv }),
    });
  }

  #patchSync(
    type: ResourceType,
    key: ObjectKey,
    patch: MergePatch,
    options: PatchOptions | undefined,
    subresource?: 'status',
  ): KubeObject {
    if (!isJsonObject(patch)) throw new BadRequestError('a merge patch must be a JSON object');
    const at = this.#locate(type, key.name, key.namespace);
    this.#requireSubresource(at, subresource);
    const existing = this.#store.get(at.typeKey, at.key);
    if (existing === undefined) throw notFound(at.type, at.name);
    const merged = applyMergePatch(existing, toJson(patch)) as unknown as KubeObject;
    if (!isRecord(merged.metadata)) merged.metadata = {};
    const patchMeta = patch.metadata;
    const inPatch =
      isJsonObject(patchMeta) && typeof patchMeta.resourceVersion === 'string'
        ? patchMeta.resourceVersion
        : undefined;
    const precondition = options?.resourceVersion ?? inPatch;
    return this.#commit(at, existing, merged, {
      manager: options?.fieldManager ?? this.#manager,
      ...(subresource === undefined ? {} : { subresource }),
      ...(precondition === undefined ? {} : { precondition }),
    });
  }

  #applySync(
    type: ResourceType,
    configuration: KubeObject,
    options: ApplyOptions,
    subresource?: 'status',
  ): KubeObject {
    if (options?.fieldManager === undefined || options.fieldManager === '') {
      // kube-apiserver validates PatchOptions before anything else and answers 422.
      const message = 'Required value: is required for apply patch';
      throw new InvalidError(`PatchOptions.meta.k8s.io "" is invalid: fieldManager: ${message}`, {
        name: '',
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message, field: 'fieldManager' }],
      });
    }
    const policy = this.#kinds.require(type);
    const config = toJson(configuration);
    if (config.apiVersion !== policy.type.apiVersion || config.kind !== policy.type.kind) {
      throw new BadRequestError(
        `an apply configuration must set apiVersion "${policy.type.apiVersion}" and kind "${policy.type.kind}"`,
      );
    }
    if (!isRecord(config.metadata)) throw new BadRequestError('metadata.name is required');
    const at = this.#locate(policy.type, config.metadata.name, config.metadata.namespace);
    this.#requireSubresource(at, subresource);
    const scope = subresource === 'status' ? 'status' : policy.type.statusSubresource ? 'main' : 'all';
    const ctx = this.#managerContext(policy.type, options.fieldManager, scope, subresource);
    const force = options.force ?? false;
    const configJson = config as unknown as JsonObject;
    const existing = this.#store.get(at.typeKey, at.key);
    if (existing === undefined) {
      if (subresource !== undefined) throw notFound(at.type, at.name);
      const outcome = applyConfiguration(undefined, [], configJson, ctx, force);
      if (!outcome.ok) throw new Error('apply to a new object cannot conflict');
      const created = outcome.object as unknown as KubeObject;
      created.apiVersion = policy.type.apiVersion;
      created.kind = policy.type.kind;
      created.metadata = {
        ...created.metadata,
        name: at.name,
        ...(at.namespace === undefined ? {} : { namespace: at.namespace }),
      };
      return this.#createSync(policy.type, created, options.fieldManager, outcome.owners);
    }
    const outcome = applyConfiguration(
      existing as unknown as JsonObject,
      this.#managedFields.decode(existing.metadata.managedFields),
      configJson,
      ctx,
      force,
    );
    if (!outcome.ok) {
      const n = outcome.conflicts.length;
      const lines = outcome.conflicts.map(
        (c) =>
          `conflict with "${c.manager}"${c.operation === 'Update' ? ` using ${c.apiVersion}` : ''}: ${formatPath(c.path)}`,
      );
      throw new ConflictError(`Apply failed with ${n} conflict${n === 1 ? '' : 's'}: ${lines.join('; ')}`, {
        name: at.name,
        kind: at.type.plural,
        causes: outcome.conflicts.map((c) => ({
          reason: 'FieldManagerConflict',
          message: `conflict with "${c.manager}"`,
          field: formatPath(c.path),
        })),
      });
    }
    const rv = config.metadata.resourceVersion;
    return this.#commit(at, existing, outcome.object as unknown as KubeObject, {
      manager: options.fieldManager,
      owners: outcome.owners,
      ...(subresource === undefined ? {} : { subresource }),
      ...(rv === undefined || rv === '' ? {} : { precondition: rv }),
    });
  }

  /** The shared tail of update, patch and apply: API-server rules, then the write. */
  #commit(at: Located, existing: KubeObject, next: KubeObject, ctx: CommitContext): KubeObject {
    if (ctx.precondition !== undefined && ctx.precondition !== existing.metadata.resourceVersion) {
      throw conflict(at.type, at.name, STALE_OBJECT_MESSAGE);
    }
    const old = existing as unknown as JsonObject;
    let result: KubeObject;
    if (ctx.subresource === 'status') {
      result = { ...existing, metadata: { ...existing.metadata } };
      const json = result as unknown as JsonObject;
      const status = (next as unknown as JsonObject).status;
      if (status === undefined) delete json.status;
      // The patched status shares its untouched parts with the stored (frozen) one, so the
      // ownership diff skips them; admission hooks replace members rather than edit them.
      else json.status = status;
    } else {
      // Its own top level and metadata, which are stamped below: a merge patch that left them
      // alone shares them with the stored (frozen) version.
      result = { ...next, metadata: isRecord(next.metadata) ? { ...next.metadata } : next.metadata };
      this.#carrySystemFields(at, existing, result);
      const json = result as unknown as JsonObject;
      if (at.type.statusSubresource) {
        if (old.status === undefined) delete json.status;
        else json.status = old.status;
      }
      normalizeMetadata(result);
      this.#validateMetadata(at.type, result, existing);
    }
    this.#admit({
      operation: 'UPDATE',
      type: at.type,
      object: result,
      oldObject: existing,
      ...(ctx.subresource === undefined ? {} : { subresource: ctx.subresource }),
    });

    const scope = ctx.subresource === 'status' ? 'status' : at.type.statusSubresource ? 'main' : 'all';
    const owners =
      ctx.owners ??
      recordUpdate(
        old,
        result as unknown as JsonObject,
        this.#managedFields.decode(existing.metadata.managedFields),
        this.#managerContext(at.type, ctx.manager, scope, ctx.subresource),
        this.#managedFields.path,
      );
    const managed = this.#managedFields.encode(owners);
    if (managed.length > 0) result.metadata.managedFields = managed;
    else delete result.metadata.managedFields;
    result.metadata.resourceVersion = existing.metadata.resourceVersion;
    setOrDelete(result.metadata, 'generation', existing.metadata.generation);
    if (jsonEqual(result, existing)) return existing;

    if (
      at.policy.tracksGeneration &&
      ctx.subresource !== 'status' &&
      specChanged(old, result as unknown as JsonObject, at.type.statusSubresource)
    ) {
      result.metadata.generation = (existing.metadata.generation ?? 0) + 1;
    }
    if (this.#finalizedDuringUpdate(at, existing, result)) {
      const removed = this.#store.remove(at.typeKey, at.key, existing);
      const out = cloneJson(result);
      out.metadata.resourceVersion = removed.metadata.resourceVersion;
      return out;
    }
    return this.#store.replace(at.typeKey, at.key, result);
  }

  /** Server-owned metadata an update cannot change. */
  #carrySystemFields(at: Located, existing: KubeObject, result: KubeObject): void {
    if (!isRecord(result.metadata)) result.metadata = {};
    const meta = result.metadata;
    const was = existing.metadata;
    if (meta.name !== undefined && meta.name !== was.name) {
      throw new BadRequestError(
        `the name of the object (${meta.name}) does not match the name on the URL (${was.name})`,
      );
    }
    if (at.namespace !== undefined && meta.namespace !== undefined && meta.namespace !== at.namespace) {
      throw new BadRequestError(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== was.uid) {
      throw conflict(
        at.type,
        at.name,
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${was.uid}`,
      );
    }
    if (was.deletionTimestamp === undefined && meta.deletionTimestamp !== undefined) {
      throw invalid(at.type, at.name, [
        {
          reason: 'FieldValueInvalid',
          field: 'metadata.deletionTimestamp',
          message: 'Invalid value: field is immutable',
        },
      ]);
    }
    result.apiVersion = at.type.apiVersion;
    result.kind = at.type.kind;
    meta.name = was.name as string;
    if (at.namespace === undefined) delete meta.namespace;
    else meta.namespace = at.namespace;
    meta.uid = was.uid as string;
    meta.creationTimestamp = was.creationTimestamp as string;
    setOrDelete(meta, 'deletionTimestamp', was.deletionTimestamp);
    setOrDelete(meta, 'deletionGracePeriodSeconds', was.deletionGracePeriodSeconds);
    setOrDelete(meta, 'managedFields', was.managedFields);
  }

  #validateMetadata(type: ResourceType, obj: KubeObject, existing: KubeObject | undefined): void {
    const causes: StatusCause[] = [];
    const refs = obj.metadata.ownerReferences ?? [];
    refs.forEach((ref, i) => {
      for (const field of ['apiVersion', 'kind', 'name', 'uid'] as const) {
        if (typeof ref[field] !== 'string' || ref[field] === '') {
          causes.push({
            reason: 'FieldValueRequired',
            field: `metadata.ownerReferences[${i}].${field}`,
            message: 'Required value',
          });
        }
      }
    });
    const controllers = refs.filter((ref) => ref.controller === true);
    if (controllers.length > 1) {
      causes.push({
        reason: 'FieldValueInvalid',
        field: 'metadata.ownerReferences',
        message: `Invalid value: Only one reference can have Controller set to true. Found "true" in references for ${controllers
          .map((c) => `${c.kind}/${c.name}`)
          .join(' and ')}`,
      });
    }
    if (existing?.metadata.deletionTimestamp !== undefined) {
      const before = new Set(existing.metadata.finalizers ?? []);
      const added = (obj.metadata.finalizers ?? []).filter((f) => !before.has(f));
      if (added.length > 0) {
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'metadata.finalizers',
          message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
        });
      }
    }
    if (causes.length > 0) throw invalid(type, obj.metadata.name ?? '', causes);
  }

  #validateName(policy: KindPolicy, name: string): void {
    let problem: string | undefined;
    if (policy.names === 'label') {
      if (name.length > 63 || !LABEL.test(name)) {
        problem =
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
      }
    } else if (policy.names === 'subdomain') {
      if (name.length > 253 || !SUBDOMAIN.test(name)) {
        problem =
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
      }
    } else if (name === '.' || name === '..' || name.includes('/') || name.includes('%')) {
      problem = "may not be '.' or '..' and may not contain '/' or '%'";
    }
    if (problem !== undefined) {
      throw invalid(policy.type, name, [
        {
          reason: 'FieldValueInvalid',
          field: 'metadata.name',
          message: `Invalid value: ${JSON.stringify(name)}: ${problem}`,
        },
      ]);
    }
  }

  #requireSubresource(at: Located, subresource: 'status' | undefined): void {
    if (subresource === 'status' && !at.type.statusSubresource) {
      throw new NotFoundError('the server could not find the requested resource', { kind: at.type.plural });
    }
  }

  /** True when an update removed the last finalizer of a deleting object, which then goes. */
  #finalizedDuringUpdate(at: Located, existing: KubeObject, result: KubeObject): boolean {
    if (existing.metadata.deletionTimestamp === undefined) return false;
    if ((result.metadata.finalizers ?? []).length > 0) return false;
    if ((existing.metadata.deletionGracePeriodSeconds ?? 0) !== 0) return false;
    if (at.typeKey === NAMESPACE_KEY) {
      const spec = (result as unknown as JsonObject).spec;
      if (isJsonObject(spec) && Array.isArray(spec.finalizers) && spec.finalizers.length > 0) return false;
    }
    return true;
  }

  #deleteSync(type: ResourceType, key: ObjectKey, options: DeleteOptions): DeleteResult<KubeObject> {
    const at = this.#locate(type, key.name, key.namespace);
    const existing = this.#store.get(at.typeKey, at.key);
    if (existing === undefined) throw notFound(at.type, at.name);
    checkPreconditions(at.type, existing, options.preconditions);
    this.#admit({ operation: 'DELETE', type: at.type, object: existing });

    if (at.typeKey === NAMESPACE_KEY) {
      const result = this.#deleteNamespace(at, existing);
      if (result !== undefined) return result;
    }
    const grace = this.#gracePeriod(at.policy, existing, options);
    const meta = existing.metadata;
    if (meta.deletionTimestamp !== undefined) {
      const current = meta.deletionGracePeriodSeconds ?? 0;
      if (!(at.policy.gracefulDeletion && grace < current)) {
        return { deleted: false, object: existing };
      }
      // A shorter grace period moves the deadline forward from the original request.
      const requestedAt = parseTime(meta.deletionTimestamp) - current * 1000;
      const next = cloneJson(existing);
      next.metadata.deletionGracePeriodSeconds = grace;
      next.metadata.deletionTimestamp = formatTime(requestedAt + grace * 1000);
      if (grace === 0 && (meta.finalizers ?? []).length === 0) {
        return { deleted: true, object: this.#store.remove(at.typeKey, at.key, next) };
      }
      return { deleted: false, object: this.#store.replace(at.typeKey, at.key, next) };
    }

    const finalizers = [...(meta.finalizers ?? [])];
    const policy = options.propagationPolicy ?? 'Background';
    if (policy === 'Orphan' && !finalizers.includes(ORPHAN_FINALIZER)) finalizers.push(ORPHAN_FINALIZER);
    if (policy === 'Foreground' && !finalizers.includes(FOREGROUND_FINALIZER))
      finalizers.push(FOREGROUND_FINALIZER);
    if (finalizers.length === 0 && grace === 0) {
      return { deleted: true, object: this.#store.remove(at.typeKey, at.key) };
    }
    const next = cloneJson(existing);
    next.metadata.finalizers = finalizers;
    normalizeMetadata(next);
    next.metadata.deletionTimestamp = formatTime(this.clock.now() + grace * 1000);
    next.metadata.deletionGracePeriodSeconds = grace;
    if ((meta.generation ?? 0) > 0) next.metadata.generation = (meta.generation ?? 0) + 1;
    return { deleted: false, object: this.#store.replace(at.typeKey, at.key, next) };
  }

  /** Namespaces go Terminating while the namespace controller empties them. */
  #deleteNamespace(at: Located, existing: KubeObject): DeleteResult<KubeObject> | undefined {
    if (PROTECTED_NAMESPACES.includes(at.name))
      throw forbidden(at.type, at.name, 'this namespace may not be deleted');
    if (existing.metadata.deletionTimestamp !== undefined) {
      throw conflict(
        at.type,
        at.name,
        'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
      );
    }
    const spec = (existing as unknown as JsonObject).spec;
    const specFinalizers = isJsonObject(spec) && Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (specFinalizers.length === 0) return undefined;
    const next = cloneJson(existing);
    next.metadata.deletionTimestamp = formatTime(this.clock.now());
    next.metadata.deletionGracePeriodSeconds = 0;
    const json = next as unknown as JsonObject;
    json.status = { ...(isJsonObject(json.status) ? json.status : {}), phase: 'Terminating' };
    return { deleted: false, object: this.#store.replace(at.typeKey, at.key, next) };
  }

  /** Seconds a pod's deletion waits for its kubelet; 0 for everything else. */
  #gracePeriod(policy: KindPolicy, obj: KubeObject, options: DeleteOptions): number {
    if (!policy.gracefulDeletion || !this.#graceful) return 0;
    const pod = obj as PodLike;
    if (pod.spec?.nodeName === undefined || pod.spec.nodeName === '' || isPodTerminal(pod)) return 0;
    const grace = options.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
    return grace < 0 ? 1 : grace;
  }

  #managerContext(
    type: ResourceType,
    manager: string,
    scope: ManagerContext['scope'],
    subresource: 'status' | undefined,
  ): ManagerContext {
    return {
      manager,
      apiVersion: type.apiVersion,
      time: this.#time.format(this.clock.now()),
      scope,
      ...(subresource === undefined ? {} : { subresource }),
    };
  }
}

/** A non-null, non-array object (without narrowing its members to JSON values). */
function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function setOrDelete<K extends keyof KubeObject['metadata']>(
  meta: KubeObject['metadata'],
  key: K,
  value: KubeObject['metadata'][K] | undefined,
): void {
  if (value === undefined) delete meta[key];
  else meta[key] = cloneJson(value);
}

/** Empty lists and maps in metadata are omitted on the wire; store them the same way. */
function normalizeMetadata(obj: KubeObject): void {
  const meta = obj.metadata;
  for (const key of ['labels', 'annotations'] as const) {
    const value = meta[key];
    if (value !== undefined && Object.keys(value).length === 0) delete meta[key];
  }
  for (const key of ['finalizers', 'ownerReferences', 'managedFields'] as const) {
    const value = meta[key];
    if (value !== undefined && value.length === 0) delete meta[key];
  }
}

/** Whether anything outside metadata (and status, with a status subresource) changed. */
function specChanged(before: JsonObject, after: JsonObject, statusSubresource: boolean): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind') continue;
    if (key === 'status' && statusSubresource) continue;
    if (!jsonEqual(before[key], after[key])) return true;
  }
  return false;
}

function sortObjects<T extends KubeObject>(objects: T[]): T[] {
  return objects.sort((a, b) => {
    const na = a.metadata.namespace ?? '';
    const nb = b.metadata.namespace ?? '';
    if (na !== nb) return na < nb ? -1 : 1;
    const ma = a.metadata.name ?? '';
    const mb = b.metadata.name ?? '';
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
}
