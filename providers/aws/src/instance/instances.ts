import type { Filter, Instance } from '@aws-sdk/client-ec2';
import { type Clock, SystemClock } from '@nodewright/core/clock';
import type { InstanceLaunchMetrics } from '@nodewright/core/cloudprovider';
import { NodeClaimNotFoundError } from '@nodewright/core/cloudprovider';
import { awsErrorCode } from '../launch/aws-error.js';
import { clusterTagKey, TagKeys } from '../launch/tags.js';
import type { Ec2Api } from '../sdk/index.js';
import { type AwsInstance, LiveStates, toAwsInstance } from './aws-instance.js';

/** How to build Instances. */
export interface InstancesDeps {
  readonly ec2: Ec2Api;
  readonly clusterName: string;
  /** Times this process's launches (recordLaunch); default the system clock. */
  readonly clock?: Clock;
  /** `karpenter_cloudprovider_instance_termination_failures_total`; nothing counted when absent. */
  readonly terminationFailures?: InstanceLaunchMetrics['terminationFailures'];
}

/**
 * How long after this process launched an instance DescribeInstances may still not know it
 * (EC2's reads are eventually consistent): within it, "not found" means "not listed yet".
 */
export const DescribeConsistencyWindowMs = 5 * 60_000;

/**
 * An instance this process launched moments ago that DescribeInstances does not show yet. Not
 * NodeClaimNotFoundError: the instance exists, so neither its NodeClaim (garbage collection)
 * nor the instance (termination) may be given up; the caller retries.
 */
export class InstanceNotListedYetError extends Error {
  constructor(instanceId: string, launchedMsAgo: number) {
    super(
      `instance ${instanceId} was launched ${Math.round(launchedMsAgo / 1000)}s ago and DescribeInstances does not list it yet (eventual consistency); retrying`,
    );
    this.name = 'InstanceNotListedYetError';
  }
}

/**
 * An instance this cluster does not own: terminate refuses it. Thrown as NodeClaimNotFoundError
 * so the NodeClaim naming it can be finalized, leaving the instance alone.
 */
export class NotOwnedInstanceError extends NodeClaimNotFoundError {
  constructor(instanceId: string, missing: readonly string[]) {
    super(
      `refusing to terminate instance ${instanceId}: it is not this cluster's (no ${missing.join(', ')} tag)`,
    );
  }
}

const NotFoundCodes: ReadonlySet<string> = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidInstanceID.Malformed',
]);

/**
 * The EC2 instances of this cluster, through DescribeInstances and TerminateInstances. An
 * instance that is terminated, or that EC2 no longer knows, is NodeClaimNotFoundError.
 */
export class Instances {
  readonly #ec2: Ec2Api;
  readonly #clusterName: string;
  readonly #clock: Clock;
  /** Launch times of the instances this process launched, within the consistency window. */
  readonly #launched = new Map<string, number>();
  readonly #terminationFailures: InstanceLaunchMetrics['terminationFailures'] | undefined;

  constructor(deps: InstancesDeps) {
    this.#ec2 = deps.ec2;
    this.#clusterName = deps.clusterName;
    this.#clock = deps.clock ?? new SystemClock();
    this.#terminationFailures = deps.terminationFailures;
  }

  /** Notes an instance this process just launched or adopted, so get does not call it gone. */
  recordLaunch(instanceId: string): void {
    const now = this.#clock.now();
    for (const [id, at] of this.#launched)
      if (now - at >= DescribeConsistencyWindowMs) this.#launched.delete(id);
    this.#launched.set(instanceId, now);
  }

  /**
   * The live instance already launched for a NodeClaim (found by its tag), if any: create
   * adopts it instead of launching a second one after a crash between CreateFleet and the
   * NodeClaim status write.
   */
  async forNodeClaim(name: string): Promise<AwsInstance | undefined> {
    const found = await this.#describe({
      Filters: [
        { Name: `tag:${TagKeys.NodeClaim}`, Values: [name] },
        { Name: `tag:${clusterTagKey(this.#clusterName)}`, Values: ['owned'] },
        { Name: 'instance-state-name', Values: [...LiveStates] },
      ],
    });
    found.sort((a, b) => (a.launchTime ?? 0) - (b.launchTime ?? 0) || (a.id < b.id ? -1 : 1));
    return found[0];
  }

  /**
   * One instance; NodeClaimNotFoundError when it is terminated or unknown, except that an
   * instance this process launched within DescribeConsistencyWindowMs is InstanceNotListedYetError.
   */
  async get(instanceId: string): Promise<AwsInstance> {
    let found: AwsInstance[];
    try {
      found = await this.#describe({ InstanceIds: [instanceId] });
    } catch (err) {
      const code = awsErrorCode(err);
      if (code !== undefined && NotFoundCodes.has(code)) {
        this.#throwIfJustLaunched(instanceId);
        throw new NodeClaimNotFoundError(`instance ${instanceId} not found (${code})`, { cause: err });
      }
      throw err;
    }
    const instance = found.find((i) => i.id === instanceId);
    if (instance === undefined) {
      this.#throwIfJustLaunched(instanceId);
      throw new NodeClaimNotFoundError(`instance ${instanceId} not found`);
    }
    if (instance.state === 'terminated')
      throw new NodeClaimNotFoundError(`instance ${instanceId} is terminated`);
    return instance;
  }

  /** Every instance of this cluster that a NodePool launched and that is not terminated. */
  async list(): Promise<AwsInstance[]> {
    return this.#describe({
      Filters: [
        { Name: `tag:${clusterTagKey(this.#clusterName)}`, Values: ['owned'] },
        { Name: 'tag-key', Values: [TagKeys.NodePool] },
        { Name: 'instance-state-name', Values: [...LiveStates, 'shutting-down'] },
      ],
    });
  }

  /**
   * Starts terminating the instance; returns while it shuts down and throws
   * NodeClaimNotFoundError once it is terminated or unknown, so repeated calls are safe.
   * Refuses (NotOwnedInstanceError) an instance without this cluster's `owned` tag and a
   * NodePool tag: a NodeClaim's providerID edited to point elsewhere never ends another's
   * instance.
   */
  async terminate(instanceId: string): Promise<void> {
    const instance = await this.get(instanceId);
    const missing = this.#ownershipTagsMissing(instance);
    if (missing.length > 0) throw new NotOwnedInstanceError(instanceId, missing);
    if (instance.state === 'shutting-down') return;
    try {
      await this.#ec2.terminateInstances({ InstanceIds: [instanceId] });
    } catch (err) {
      this.#terminationFailures?.inc({ zone: instance.zone, zone_id: instance.zoneId ?? '' });
      const code = awsErrorCode(err);
      if (code !== undefined && NotFoundCodes.has(code)) {
        throw new NodeClaimNotFoundError(`instance ${instanceId} not found (${code})`, { cause: err });
      }
      throw err;
    }
  }

  /**
   * The ownership tags the instance lacks: ours carry the cluster's `owned` tag and a NodePool
   * tag (what list selects by, and what the IAM policy's TerminateInstances condition requires).
   */
  #ownershipTagsMissing(instance: AwsInstance): string[] {
    const missing: string[] = [];
    const cluster = clusterTagKey(this.#clusterName);
    if (instance.tags[cluster] !== 'owned') missing.push(`${cluster}=owned`);
    if ((instance.tags[TagKeys.NodePool] ?? '') === '') missing.push(TagKeys.NodePool);
    return missing;
  }

  #throwIfJustLaunched(instanceId: string): void {
    const at = this.#launched.get(instanceId);
    if (at === undefined) return;
    const ago = this.#clock.now() - at;
    if (ago < DescribeConsistencyWindowMs) throw new InstanceNotListedYetError(instanceId, ago);
  }

  async #describe(input: { InstanceIds?: string[]; Filters?: Filter[] }): Promise<AwsInstance[]> {
    const out: AwsInstance[] = [];
    let token: string | undefined;
    do {
      const page = await this.#ec2.describeInstances({
        ...input,
        ...(token !== undefined ? { NextToken: token } : {}),
      });
      for (const r of page.Reservations ?? []) {
        for (const i of r.Instances ?? ([] as Instance[])) {
          const view = toAwsInstance(i);
          if (view !== undefined) out.push(view);
        }
      }
      token = page.NextToken;
    } while (token !== undefined && token !== '');
    return out;
  }
}
