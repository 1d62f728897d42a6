import type { Filter, Instance } from '@aws-sdk/client-ec2';
import { NodeClaimNotFoundError } from '@nodewright/core/cloudprovider';
import { awsErrorCode } from '../launch/aws-error.js';
import { clusterTagKey, TagKeys } from '../launch/tags.js';
import type { Ec2Api } from '../sdk/index.js';
import { type AwsInstance, LiveStates, toAwsInstance } from './aws-instance.js';

/** How to build Instances. */
export interface InstancesDeps {
  readonly ec2: Ec2Api;
  readonly clusterName: string;
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

  constructor(deps: InstancesDeps) {
    this.#ec2 = deps.ec2;
    this.#clusterName = deps.clusterName;
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

  /** One instance; NodeClaimNotFoundError when it is terminated or unknown. */
  async get(instanceId: string): Promise<AwsInstance> {
    let found: AwsInstance[];
    try {
      found = await this.#describe({ InstanceIds: [instanceId] });
    } catch (err) {
      const code = awsErrorCode(err);
      if (code !== undefined && NotFoundCodes.has(code)) {
        throw new NodeClaimNotFoundError(`instance ${instanceId} not found (${code})`, { cause: err });
      }
      throw err;
    }
    const instance = found.find((i) => i.id === instanceId);
    if (instance === undefined) throw new NodeClaimNotFoundError(`instance ${instanceId} not found`);
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
   */
  async terminate(instanceId: string): Promise<void> {
    const instance = await this.get(instanceId);
    if (instance.state === 'shutting-down') return;
    try {
      await this.#ec2.terminateInstances({ InstanceIds: [instanceId] });
    } catch (err) {
      const code = awsErrorCode(err);
      if (code !== undefined && NotFoundCodes.has(code)) {
        throw new NodeClaimNotFoundError(`instance ${instanceId} not found (${code})`, { cause: err });
      }
      throw err;
    }
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
