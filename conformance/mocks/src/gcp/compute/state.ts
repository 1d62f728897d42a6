import type { Clock } from '@nodewright/core/clock';
import type { GceFaults, ProvisioningModel } from '../faults/faults.js';
import type { MachineTypeFacts } from '../seed/machine-types.js';
import {
  alreadyExists,
  invalid,
  notFound,
  type OperationError,
  quotaError,
  stockoutError,
} from './errors.js';

/** How long things take, in clock milliseconds. */
export interface GceTimings {
  /** An operation is PENDING this long, then RUNNING. */
  readonly pendingMs: number;
  /** An operation is DONE (and a new VM RUNNING) this long after it was inserted. */
  readonly operationMs: number;
  /** A deleted or preempted VM is STOPPING this long before it is gone. */
  readonly stopMs: number;
}

export const DefaultGceTimings: GceTimings = { pendingMs: 20, operationMs: 100, stopMs: 100 };

/** A VM as the mock stores it: the fields the API returns, plus when its states change. */
export interface MockInstance {
  readonly id: string;
  readonly name: string;
  readonly zone: string;
  readonly machineType: string;
  readonly provisioningModel: ProvisioningModel;
  readonly cpus: number;
  readonly createdAt: number;
  /** The resource as inserted (labels, metadata, disks, scheduling, ...). */
  readonly resource: Record<string, unknown>;
  readonly networkIP: string;
  stoppingAt?: number;
  preempted?: boolean;
}

/** A zone operation as stored; its status follows the clock. */
export interface MockOperation {
  readonly id: string;
  readonly name: string;
  readonly zone: string;
  readonly operationType: string;
  readonly targetLink: string;
  readonly targetId?: string;
  readonly insertedAt: number;
  readonly doneAt: number;
  readonly error?: readonly OperationError[];
  readonly user: string;
  readonly statusMessage?: string;
}

/** The fields a provider sets on an instance it inserts, as the REST JSON carries them. */
interface InstanceResource {
  name?: string;
  machineType?: string;
  labels?: Record<string, string>;
  scheduling?: { provisioningModel?: string; instanceTerminationAction?: string; preemptible?: boolean };
  disks?: { boot?: boolean; initializeParams?: { sourceImage?: string } }[];
  [key: string]: unknown;
}

const NameRe = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const LabelKeyRe = /^[a-z][a-z0-9_-]{0,62}$/;
const LabelValueRe = /^[a-z0-9_-]{0,63}$/;

/**
 * Compute Engine's state for one project: VMs per zone, zone operations, machine types and
 * images. Stateful and clock-driven: statuses are derived from the injected clock when read,
 * so a test with a fake clock steps through PENDING/RUNNING/DONE itself.
 */
export class ComputeState {
  readonly project: string;
  readonly #clock: Clock;
  readonly #faults: GceFaults;
  readonly timings: GceTimings;
  readonly machineTypes: readonly MachineTypeFacts[];
  readonly #regions: Readonly<Record<string, readonly string[]>>;
  readonly #instances = new Map<string, MockInstance>();
  readonly #operations = new Map<string, MockOperation>();
  readonly #requests = new Map<string, MockOperation>();
  /** Image self-links by `project/name` and the newest per `project/family/NAME`. */
  readonly images = new Map<string, Record<string, unknown>>();
  #seq = 0;

  constructor(deps: {
    project: string;
    clock: Clock;
    faults: GceFaults;
    machineTypes: readonly MachineTypeFacts[];
    regions: Readonly<Record<string, readonly string[]>>;
    timings?: Partial<GceTimings>;
  }) {
    this.project = deps.project;
    this.#clock = deps.clock;
    this.#faults = deps.faults;
    this.machineTypes = deps.machineTypes;
    this.#regions = deps.regions;
    this.timings = { ...DefaultGceTimings, ...deps.timings };
  }

  get zones(): string[] {
    return Object.values(this.#regions).flat();
  }

  regionOf(zone: string): string {
    return zone.replace(/-[a-z]$/, '');
  }

  base(): string {
    return `https://www.googleapis.com/compute/v1/projects/${this.project}`;
  }

  requireZone(project: string, zone: string): void {
    if (project !== this.project) throw notFound(`projects/${project}`);
    if (!this.zones.includes(zone)) throw notFound(`projects/${project}/zones/${zone}`);
  }

  #nextId(): string {
    this.#seq++;
    return String(4_000_000_000_000_000_000n + BigInt(this.#seq) * 7919n);
  }

  // ----- machine types

  machineTypeResource(t: MachineTypeFacts, zone: string): Record<string, unknown> {
    return {
      kind: 'compute#machineType',
      id: String(1_000_000 + this.machineTypes.indexOf(t)),
      creationTimestamp: '2020-06-01T00:00:00.000-07:00',
      name: t.name,
      description: `${t.guestCpus} vCPU${t.guestCpus > 1 ? 's' : ''}, ${t.memoryMb / 1024} GB RAM`,
      guestCpus: t.guestCpus,
      memoryMb: t.memoryMb,
      imageSpaceGb: 0,
      maximumPersistentDisks: t.maximumPersistentDisks,
      maximumPersistentDisksSizeGb: '263168',
      zone,
      selfLink: `${this.base()}/zones/${zone}/machineTypes/${t.name}`,
      isSharedCpu: t.isSharedCpu,
      architecture: t.architecture,
      ...(t.accelerators === undefined ? {} : { accelerators: t.accelerators }),
    };
  }

  machineType(zone: string, name: string): MachineTypeFacts {
    const t = this.machineTypes.find((m) => m.name === name && m.zones.includes(zone));
    if (t === undefined) throw notFound(`projects/${this.project}/zones/${zone}/machineTypes/${name}`);
    return t;
  }

  // ----- instances

  #purge(): void {
    const now = this.#clock.now();
    for (const [key, i] of this.#instances) {
      if (i.stoppingAt !== undefined && now >= i.stoppingAt + this.timings.stopMs)
        this.#instances.delete(key);
    }
  }

  #status(i: MockInstance): string {
    const now = this.#clock.now();
    if (i.stoppingAt !== undefined) return 'STOPPING';
    if (now < i.createdAt + this.timings.pendingMs) return 'PROVISIONING';
    if (now < i.createdAt + this.timings.operationMs) return 'STAGING';
    return 'RUNNING';
  }

  instanceResource(i: MockInstance): Record<string, unknown> {
    const base = `${this.base()}/zones/${i.zone}`;
    return {
      ...i.resource,
      kind: 'compute#instance',
      id: i.id,
      name: i.name,
      zone: base,
      machineType: `${base}/machineTypes/${i.machineType}`,
      status: this.#status(i),
      creationTimestamp: new Date(i.createdAt).toISOString(),
      selfLink: `${base}/instances/${i.name}`,
      cpuPlatform: 'Intel Cascade Lake',
      labelFingerprint: '42WmSpB8rSM=',
      networkInterfaces: [{ name: 'nic0', networkIP: i.networkIP, stackType: 'IPV4_ONLY' }],
    };
  }

  /** Live VMs (a deleted one stays listed while STOPPING, as GCE shows it). */
  instances(zone?: string): MockInstance[] {
    this.#purge();
    return [...this.#instances.values()].filter((i) => zone === undefined || i.zone === zone);
  }

  instance(zone: string, name: string): MockInstance {
    this.#purge();
    const i = this.#instances.get(`${zone}/${name}`);
    if (i === undefined) throw notFound(`projects/${this.project}/zones/${zone}/instances/${name}`);
    return i;
  }

  #validate(zone: string, resource: InstanceResource): { type: MachineTypeFacts; model: ProvisioningModel } {
    if (typeof resource.name !== 'string' || !NameRe.test(resource.name)) {
      throw invalid(
        `'resource.name': '${resource.name ?? ''}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
      );
    }
    const typeName =
      String(resource.machineType ?? '')
        .split('/')
        .pop() ?? '';
    const type = this.machineTypes.find((m) => m.name === typeName);
    if (type === undefined || !type.zones.includes(zone)) {
      throw invalid(
        `'resource.machineType': '${resource.machineType ?? ''}'. Machine type with name '${typeName}' does not exist in zone '${zone}'.`,
      );
    }
    for (const [k, v] of Object.entries(resource.labels ?? {})) {
      if (!LabelKeyRe.test(k) || !LabelValueRe.test(v))
        throw invalid(
          `'resource.labels': '${k}'. Label keys and values must conform to the GCE label format.`,
        );
    }
    const boot = (resource.disks ?? []).filter((d) => d.boot);
    if (boot.length !== 1) throw invalid(`'resource.disks'. Exactly one boot disk is required.`);
    const image = boot[0]?.initializeParams?.sourceImage;
    if (image !== undefined && this.images.size > 0 && this.resolveImage(image) === undefined) {
      throw invalid(
        `'resource.disks[0].initializeParams.sourceImage': '${image}'. The referenced image resource cannot be found.`,
      );
    }
    const model = resource.scheduling?.provisioningModel === 'SPOT' ? 'SPOT' : 'STANDARD';
    if (model === 'SPOT' && resource.scheduling?.instanceTerminationAction === undefined) {
      throw invalid(
        `'resource.scheduling.instanceTerminationAction'. Spot VMs need an instance termination action.`,
      );
    }
    return { type, model };
  }

  #regionCpus(region: string): number {
    return this.instances()
      .filter((i) => this.regionOf(i.zone) === region && i.stoppingAt === undefined)
      .reduce((sum, i) => sum + i.cpus, 0);
  }

  #operation(
    zone: string,
    operationType: string,
    targetLink: string,
    extra: Partial<MockOperation> = {},
  ): MockOperation {
    const now = this.#clock.now();
    const id = this.#nextId();
    const op: MockOperation = {
      id,
      name: `operation-${now}-${id.slice(-8)}-${this.#seq}`,
      zone,
      operationType,
      targetLink,
      insertedAt: now,
      doneAt: now + this.timings.operationMs,
      user: `karpenter@${this.project}.iam.gserviceaccount.com`,
      ...extra,
    };
    this.#operations.set(`${zone}/${op.name}`, op);
    return op;
  }

  /** `instances.insert`: validates now (400/409), reports stockout and quota in the operation. */
  insert(zone: string, resource: InstanceResource, requestId?: string | null): MockOperation {
    if (requestId) {
      const earlier = this.#requests.get(requestId);
      if (earlier !== undefined) return earlier;
    }
    const { type, model } = this.#validate(zone, resource);
    const name = resource.name as string;
    const link = `${this.base()}/zones/${zone}/instances/${name}`;
    this.#purge();
    if (this.#instances.has(`${zone}/${name}`))
      throw alreadyExists(`projects/${this.project}/zones/${zone}/instances/${name}`);
    const op = this.#launch(zone, 'insert', link, [{ name, resource, type, model }]);
    if (requestId) this.#requests.set(requestId, op);
    return op;
  }

  #launch(
    zone: string,
    operationType: string,
    link: string,
    vms: readonly {
      name: string;
      resource: InstanceResource;
      type: MachineTypeFacts;
      model: ProvisioningModel;
    }[],
  ): MockOperation {
    const region = this.regionOf(zone);
    const limit = this.#faults.cpuLimit;
    const cpus = vms.reduce((s, v) => s + v.type.guestCpus, 0);
    if (limit !== undefined && this.#regionCpus(region) + cpus > limit) {
      return this.#operation(zone, operationType, link, { error: [quotaError('CPUS', limit, region)] });
    }
    for (const v of vms) {
      if (!this.#faults.takeCapacity({ machineType: v.type.name, zone, provisioningModel: v.model })) {
        return this.#operation(zone, operationType, link, { error: [stockoutError(zone, v.type.name)] });
      }
    }
    let first: MockInstance | undefined;
    for (const v of vms) {
      const i: MockInstance = {
        id: this.#nextId(),
        name: v.name,
        zone,
        machineType: v.type.name,
        provisioningModel: v.model,
        cpus: v.type.guestCpus,
        createdAt: this.#clock.now(),
        resource: { ...v.resource, machineType: v.type.name },
        networkIP: `10.128.${(this.#seq >> 8) & 255}.${this.#seq & 255}`,
      };
      this.#instances.set(`${zone}/${v.name}`, i);
      first ??= i;
    }
    return this.#operation(zone, operationType, link, first === undefined ? {} : { targetId: first.id });
  }

  /**
   * `instances.bulkInsert`: `count` VMs named by `perInstanceProperties` or `namePattern`, each
   * of the first machine type (instance selections by rank, then as listed) with capacity; fewer
   * than `minCount` fails the whole request with a stockout, creating nothing.
   */
  bulkInsert(zone: string, body: Record<string, unknown>): MockOperation {
    const props = (body.instanceProperties ?? {}) as InstanceResource;
    const count = Number(body.count ?? 0);
    const minCount = Number(body.minCount ?? count);
    const perInstance = Object.keys((body.perInstanceProperties ?? {}) as Record<string, unknown>);
    const pattern = typeof body.namePattern === 'string' ? body.namePattern : undefined;
    if (!(count >= 1)) throw invalid(`'count': must be at least 1`);
    if (perInstance.length === 0 && pattern === undefined)
      throw invalid(`'namePattern'. Give namePattern or perInstanceProperties.`);
    const names =
      perInstance.length > 0
        ? perInstance.slice(0, count)
        : Array.from({ length: count }, (_, n) => nameFromPattern(pattern!, n + 1));
    const selections = Object.values(
      (
        body.instanceFlexibilityPolicy as
          | { instanceSelections?: Record<string, { machineTypes?: string[]; rank?: number | string }> }
          | undefined
      )?.instanceSelections ?? {},
    ).sort((a, b) => Number(a.rank ?? 0) - Number(b.rank ?? 0));
    const candidates =
      selections.length > 0
        ? selections.flatMap((s) => s.machineTypes ?? [])
        : [String(props.machineType ?? '')];
    const model: ProvisioningModel = props.scheduling?.provisioningModel === 'SPOT' ? 'SPOT' : 'STANDARD';
    const vms: {
      name: string;
      resource: InstanceResource;
      type: MachineTypeFacts;
      model: ProvisioningModel;
    }[] = [];
    for (const name of names) {
      const typeName = candidates.find((t) => {
        const facts = this.machineTypes.find((m) => m.name === t.split('/').pop());
        return (
          facts?.zones.includes(zone) &&
          this.#faults.hasCapacity({ machineType: facts.name, zone, provisioningModel: model })
        );
      });
      if (typeName === undefined) break;
      const resource = { ...props, name, machineType: typeName.split('/').pop() };
      vms.push({ name, resource, ...this.#validate(zone, resource) });
    }
    const link = `${this.base()}/zones/${zone}/instances`;
    if (vms.length < minCount) {
      return this.#operation(zone, 'bulkInsert', link, {
        error: [stockoutError(zone, candidates.join(','))],
      });
    }
    return this.#launch(zone, 'bulkInsert', link, vms);
  }

  /** `instances.delete`: the VM goes STOPPING, then away. Deleting a missing VM is a 404. */
  delete(zone: string, name: string): MockOperation {
    const i = this.instance(zone, name);
    i.stoppingAt ??= this.#clock.now();
    return this.#operation(zone, 'delete', `${this.base()}/zones/${zone}/instances/${name}`, {
      targetId: i.id,
    });
  }

  /**
   * Preempts a running spot VM as GCE does: a DONE `compute.instances.preempted` zone operation
   * by the system, and the VM STOPPING then gone (instanceTerminationAction DELETE).
   */
  preempt(zone: string, name: string): MockOperation {
    const i = this.instance(zone, name);
    i.stoppingAt = this.#clock.now();
    i.preempted = true;
    const now = this.#clock.now();
    return this.#operation(
      zone,
      'compute.instances.preempted',
      `${this.base()}/zones/${zone}/instances/${name}`,
      {
        targetId: i.id,
        doneAt: now,
        user: 'system',
        statusMessage: 'Instance was preempted.',
      },
    );
  }

  /** A host maintenance event on a VM (`compute.instances.hostMaintenance`), the VM left running. */
  hostMaintenance(zone: string, name: string): MockOperation {
    const i = this.instance(zone, name);
    return this.#operation(
      zone,
      'compute.instances.hostMaintenance',
      `${this.base()}/zones/${zone}/instances/${name}`,
      {
        targetId: i.id,
        doneAt: this.#clock.now(),
        user: 'system',
        statusMessage: 'Host maintenance scheduled.',
      },
    );
  }

  // ----- operations

  operation(zone: string, name: string): MockOperation {
    const op = this.#operations.get(`${zone}/${name}`);
    if (op === undefined) throw notFound(`projects/${this.project}/zones/${zone}/operations/${name}`);
    return op;
  }

  operations(zone: string): MockOperation[] {
    return [...this.#operations.values()].filter((o) => o.zone === zone);
  }

  operationStatus(op: MockOperation): 'PENDING' | 'RUNNING' | 'DONE' {
    const now = this.#clock.now();
    if (now >= op.doneAt) return 'DONE';
    return now < op.insertedAt + this.timings.pendingMs ? 'PENDING' : 'RUNNING';
  }

  operationResource(op: MockOperation): Record<string, unknown> {
    const status = this.operationStatus(op);
    const base = `${this.base()}/zones/${op.zone}`;
    return {
      kind: 'compute#operation',
      id: op.id,
      name: op.name,
      zone: base,
      operationType: op.operationType,
      targetLink: op.targetLink,
      ...(op.targetId === undefined ? {} : { targetId: op.targetId }),
      status,
      user: op.user,
      progress: status === 'DONE' ? 100 : status === 'RUNNING' ? 50 : 0,
      insertTime: new Date(op.insertedAt).toISOString(),
      ...(status === 'PENDING'
        ? {}
        : { startTime: new Date(op.insertedAt + this.timings.pendingMs).toISOString() }),
      ...(status === 'DONE' ? { endTime: new Date(op.doneAt).toISOString() } : {}),
      ...(op.statusMessage === undefined ? {} : { statusMessage: op.statusMessage }),
      ...(status === 'DONE' && op.error !== undefined
        ? {
            error: { errors: op.error },
            httpErrorStatusCode: op.error[0]?.code === 'QUOTA_EXCEEDED' ? 403 : 503,
            httpErrorMessage: op.error[0]?.code === 'QUOTA_EXCEEDED' ? 'FORBIDDEN' : 'SERVICE UNAVAILABLE',
          }
        : {}),
      selfLink: `${base}/operations/${op.name}`,
    };
  }

  /** Milliseconds until the operation is DONE (0 if it is). */
  untilDone(op: MockOperation): number {
    return Math.max(0, op.doneAt - this.#clock.now());
  }

  // ----- images

  /** Registers an image under its project, and as the newest of its family there. */
  addImage(
    project: string,
    image: { name: string; family?: string; architecture?: string; deprecated?: boolean },
  ): void {
    const resource = {
      kind: 'compute#image',
      id: this.#nextId(),
      name: image.name,
      ...(image.family === undefined ? {} : { family: image.family }),
      architecture: image.architecture ?? 'X86_64',
      status: 'READY',
      selfLink: `https://www.googleapis.com/compute/v1/projects/${project}/global/images/${image.name}`,
      ...(image.deprecated ? { deprecated: { state: 'DEPRECATED' } } : {}),
    };
    this.images.set(`${project}/${image.name}`, resource);
    if (image.family !== undefined && !image.deprecated)
      this.images.set(`${project}/family/${image.family}`, resource);
  }

  /** An image by full URL or `projects/P/global/images/[family/]NAME`. */
  resolveImage(link: string): Record<string, unknown> | undefined {
    const m = /projects\/([^/]+)\/global\/images\/(family\/)?([^/]+)$/.exec(link);
    if (m === null) return undefined;
    return this.images.get(`${m[1]}/${m[2] ? 'family/' : ''}${m[3]}`);
  }
}

/** GCE's namePattern: a run of `#` is replaced by the zero-padded number. */
function nameFromPattern(pattern: string, n: number): string {
  return pattern.replace(/#+/, (hashes) => String(n).padStart(hashes.length, '0'));
}
