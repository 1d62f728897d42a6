import type { NodeClaim } from '@nodewright/core/apis';
import { kubeletLabels, Labels } from '@nodewright/core/apis';
import type { InstanceLaunchMetrics } from '@nodewright/core/cloudprovider';
import {
  CreateError,
  type InstanceType,
  InsufficientCapacityError,
  NodeClassNotReadyError,
  UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import { parseResourceList, Requirements } from '@nodewright/core/scheduling';
import { type EC2NodeClass, resolvedAmiFamily } from '../apis/index.js';
import type { Ec2Api } from '../sdk/index.js';
import { awsErrorCode, errorMessage } from './aws-error.js';
import { LaunchAttempts, launchClientToken } from './client-token.js';
import { type FleetGroup, fleetRequest } from './fleet-request.js';
import { type FleetInstance, readFleetOutput } from './fleet-result.js';
import { launchFailureReason } from './launch-metrics.js';
import { planLaunch } from './launch-plan.js';
import { type LaunchTemplateSpec, launchTemplateSpec } from './launch-template-data.js';
import type { LaunchTemplates } from './launch-templates.js';
import type { AwsLogger } from './logger.js';
import { type Subnets, subnetPerZone } from './subnets.js';
import { instanceTags, launchTemplateTags } from './tags.js';

/** How long an offering the fleet refused stays unavailable (as upstream). */
export const UnavailableOfferingTtlMs = 3 * 60_000;

/** How to build a FleetLauncher. */
export interface FleetLauncherDeps {
  readonly ec2: Ec2Api;
  readonly launchTemplates: LaunchTemplates;
  readonly subnets: Subnets;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly logger: AwsLogger;
  readonly clusterName: string;
  readonly clusterEndpoint?: string | undefined;
  readonly caBundle?: string | undefined;
  /** Which ClientToken each claim's next CreateFleet carries; default a fresh LaunchAttempts. */
  readonly attempts?: LaunchAttempts;
  /** Launch failures per refused offering and the rendered user data's size; none when absent. */
  readonly metrics?: InstanceLaunchMetrics;
}

/** What a launch produced. */
export interface Launched {
  readonly instance: FleetInstance & { readonly zone: string };
  readonly instanceType: InstanceType | undefined;
  readonly imageId: string;
  readonly zoneId: string | undefined;
}

/**
 * Launches one instance for a NodeClaim with CreateFleet: plans the overrides (launch-plan),
 * makes sure each group's launch template exists, sends one `instant` fleet request carrying the
 * NodeClaim's ClientToken (client-token.ts: a retry after a lost answer never launches twice), marks the
 * offerings the errorSet refused unavailable, and maps a failure onto the typed errors
 * (InsufficientCapacityError when every error was a capacity error, else CreateError with the
 * AWS code and message).
 */
export class FleetLauncher {
  readonly #deps: FleetLauncherDeps;
  readonly #attempts: LaunchAttempts;

  constructor(deps: FleetLauncherDeps) {
    this.#deps = deps;
    this.#attempts = deps.attempts ?? new LaunchAttempts();
  }

  async launch(input: {
    nodeClaim: NodeClaim;
    nodeClass: EC2NodeClass;
    instanceTypes: readonly InstanceType[];
  }): Promise<Launched> {
    const { nodeClaim, nodeClass } = input;
    const d = this.#deps;
    const claimName = nodeClaim.metadata.name ?? '';
    const ncName = nodeClass.metadata.name ?? '';
    const status = nodeClass.status;
    const family = resolvedAmiFamily(nodeClass.spec);
    const instanceProfile = status?.instanceProfile ?? nodeClass.spec.instanceProfile;
    const missing = [
      !status?.subnets?.length && 'status.subnets',
      !status?.securityGroups?.length && 'status.securityGroups',
      !status?.amis?.length && 'status.amis',
      !instanceProfile && 'status.instanceProfile',
      family === undefined && 'spec.amiFamily',
    ].filter((m): m is string => typeof m === 'string');
    if (missing.length > 0 || status === undefined || family === undefined || !instanceProfile) {
      throw new NodeClassNotReadyError(`EC2NodeClass ${ncName} has no ${missing.join(', ')} resolved yet`);
    }
    const described = await d.subnets.describe((status.subnets ?? []).map((s) => s.id));
    const subnets = subnetPerZone(described);
    const requirements = Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements);
    const plan = planLaunch({
      requirements,
      requests: parseResourceList(nodeClaim.spec.resources?.requests),
      instanceTypes: input.instanceTypes,
      subnets,
      amis: (status.amis ?? []).map((a) => ({ id: a.id, requirements: a.requirements })),
    });
    if (!plan.ok) {
      if (plan.insufficientCapacity || !plan.reason.startsWith('minValues'))
        throw new InsufficientCapacityError(`NodeClaim ${claimName}: ${plan.reason}`);
      throw new CreateError('InstanceTypeFilteringFailed', plan.reason);
    }
    const nodePool = nodeClaim.metadata.labels?.[Labels.NodePool] ?? '';
    const ltTags = launchTemplateTags({
      clusterName: d.clusterName,
      nodeClassName: ncName,
      nodeClassTags: nodeClass.spec.tags,
    });
    const labels = kubeletLabels({ ...nodeClaim.metadata.labels, [Labels.CapacityType]: plan.capacityType });
    const taints = [...(nodeClaim.spec.taints ?? []), ...(nodeClaim.spec.startupTaints ?? [])];
    const groups: FleetGroup[] = [];
    for (const g of plan.groups) {
      let spec: LaunchTemplateSpec;
      try {
        spec = launchTemplateSpec({
          clusterName: d.clusterName,
          nodeClass,
          family,
          imageId: g.imageId,
          securityGroupIds: (status.securityGroups ?? []).map((s) => s.id),
          instanceProfile,
          tags: ltTags,
          bootstrap: {
            clusterName: d.clusterName,
            clusterEndpoint: d.clusterEndpoint,
            caBundle: d.caBundle,
            labels,
            taints,
            maxPods: g.maxPods,
            kubelet: nodeClass.spec.kubelet,
            customUserData: nodeClass.spec.userData,
          },
        });
      } catch (err) {
        // Settings the user data needs are missing (clusterEndpoint, caBundle): show it on the claim.
        throw new CreateError('LaunchTemplateInvalid', `EC2NodeClass ${ncName}: ${errorMessage(err)}`, {
          cause: err,
        });
      }
      const userData = spec.data.UserData;
      d.metrics?.userDataBytes.set(
        { nodeclass: ncName },
        userData === undefined ? 0 : Buffer.from(userData, 'base64').length,
      );
      try {
        await d.launchTemplates.ensure(spec);
      } catch (err) {
        throw new CreateError(
          awsErrorCode(err) ?? 'LaunchTemplateCreationFailed',
          `launch template ${spec.name} for EC2NodeClass ${ncName}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
      groups.push({ ...g, launchTemplateName: spec.name });
    }
    const attemptKey = nodeClaim.metadata.uid ?? claimName;
    const attempt = this.#attempts.next(attemptKey);
    const clientToken = launchClientToken(nodeClaim, attempt);
    const request = fleetRequest({
      clientToken,
      capacityType: plan.capacityType,
      groups,
      tags: instanceTags({
        clusterName: d.clusterName,
        nodeClassName: ncName,
        nodeClassTags: nodeClass.spec.tags,
        nodePool,
        nodeClaim: claimName,
      }),
      context: nodeClass.spec.context,
    });
    let out: Awaited<ReturnType<Ec2Api['createFleet']>>;
    try {
      out = await d.ec2.createFleet(request);
    } catch (err) {
      const code = awsErrorCode(err);
      if (code === 'IdempotentParameterMismatch') {
        // An earlier request with this token reached EC2 (and may have launched): keep the
        // token, so no second instance is launched, until DescribeInstances shows the first.
        throw new CreateError(
          code,
          `CreateFleet for NodeClaim ${claimName}: an earlier request with ClientToken ${clientToken} reached EC2 with other parameters; waiting for its instance to be listed`,
          { cause: err },
        );
      }
      if (refusedOutright(err)) this.#attempts.refused(attemptKey, attempt);
      if (
        code === 'InvalidLaunchTemplateName.NotFoundException' ||
        code === 'InvalidLaunchTemplateId.NotFound'
      ) {
        for (const g of groups) d.launchTemplates.forget(g.launchTemplateName);
      }
      throw new CreateError(
        code ?? 'FleetRequestFailed',
        `CreateFleet for NodeClaim ${claimName}: ${errorMessage(err)}`,
        {
          cause: err,
        },
      );
    }
    const zoneOf = (subnetId: string | undefined) => described.find((s) => s.id === subnetId)?.zone;
    const outcome = readFleetOutput(out, plan.capacityType, zoneOf);
    for (const e of outcome.errors) {
      const zone = e.offering?.zone ?? '';
      d.metrics?.launchFailures.inc({
        zone,
        zone_id: status.subnets?.find((s) => s.zone === zone)?.zoneID ?? '',
        capacity_type: e.offering?.capacityType ?? plan.capacityType,
        reason: launchFailureReason(e.code, e.message),
      });
    }
    for (const u of outcome.unavailable) {
      d.unavailableOfferings.markUnavailable(u.offering, `${u.code}: ${u.message}`, UnavailableOfferingTtlMs);
    }
    if (outcome.unavailable.length > 0) {
      d.logger.info(
        {
          NodeClaim: { name: claimName },
          offerings: outcome.unavailable.map((u) => UnavailableOfferingsCache.key(u.offering)),
        },
        'marked offerings unavailable after CreateFleet refused them for capacity',
      );
    }
    const instance = outcome.instance;
    if (instance === undefined) this.#attempts.refused(attemptKey, attempt);
    else this.#attempts.launched(attemptKey);
    if (instance === undefined) {
      if (outcome.allCapacity) {
        throw new InsufficientCapacityError(
          `CreateFleet for NodeClaim ${claimName} found no capacity: ${outcome.errors
            .map((e) => `${e.code}${e.offering ? ` (${UnavailableOfferingsCache.key(e.offering)})` : ''}`)
            .join(', ')}`,
          outcome.unavailable.map((u) => UnavailableOfferingsCache.key(u.offering)),
        );
      }
      const first =
        outcome.errors.find((e) => !outcome.unavailable.some((u) => u.code === e.code)) ?? outcome.errors[0];
      throw new CreateError(
        first?.code ?? 'FleetLaunchedNothing',
        first?.message ?? `CreateFleet for NodeClaim ${claimName} launched no instance and reported no error`,
      );
    }
    const zone = instance.zone ?? '';
    const instanceType = plan.instanceTypes.find((t) => t.name === instance.instanceType);
    const group = plan.groups.find((g) => g.overrides.some((o) => o.instanceType === instance.instanceType));
    return {
      instance: { ...instance, zone },
      instanceType,
      imageId: group?.imageId ?? '',
      zoneId: status.subnets?.find((s) => s.zone === zone)?.zoneID,
    };
  }
}

/**
 * Whether EC2 answered the request and refused it (a 4xx: invalid, unauthorized), so nothing
 * was launched and the next launch may use a new token. Throttling, 5xx and a lost answer say
 * nothing about whether it launched.
 */
function refusedOutright(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500;
}
