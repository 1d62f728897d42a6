import { int, type QueryNode, str, strs, struct, structs } from '../../query/form.js';
import type { XmlObject } from '../../query/xml.js';
import { hexOf } from '../../seed/hash.js';
import { privateDnsSuffix } from '../../seed/regions.js';
import type { Ec2Action, Ec2Context } from '../context.js';
import { Ec2Error, missingParameter } from '../errors.js';
import { tagsFor } from '../filters.js';
import { type AllocationStrategy, type FleetCandidate, type FleetFailure, planFleet } from '../fleet-plan.js';
import { allocateAddress, type Ec2Instance, type Ec2LaunchTemplate } from '../state.js';

type CapacityType = 'spot' | 'on-demand';

interface ResolvedConfig {
  readonly spec: QueryNode;
  readonly template: Ec2LaunchTemplate | undefined;
  readonly missing: FleetFailure | undefined;
  readonly overrides: readonly QueryNode[];
}

interface Candidate extends FleetCandidate {
  readonly config: ResolvedConfig;
  readonly override: QueryNode;
}

const STRATEGIES: readonly AllocationStrategy[] = [
  'lowest-price',
  'prioritized',
  'price-capacity-optimized',
  'capacity-optimized',
  'capacity-optimized-prioritized',
  'diversified',
];

function resolveConfig(config: QueryNode, ctx: Ec2Context): ResolvedConfig {
  const spec = struct(config, 'LaunchTemplateSpecification') ?? {};
  const id = str(spec, 'LaunchTemplateId');
  const name = str(spec, 'LaunchTemplateName');
  const template = ctx.state.findLaunchTemplate(id !== undefined ? { id } : { name: name ?? '' });
  const missing = template
    ? undefined
    : id !== undefined
      ? {
          code: 'InvalidLaunchTemplateId.NotFound',
          message: `The specified launch template, with template ID ${id}, does not exist.`,
        }
      : {
          code: 'InvalidLaunchTemplateName.NotFoundException',
          message: `The specified launch template, with template name ${name ?? ''}, does not exist.`,
        };
  const overrides = structs(config, 'Overrides');
  return { spec, template, missing, overrides: overrides.length > 0 ? overrides : [{}] };
}

/** Why an override cannot launch at all, before capacity is considered. */
function staticFailure(
  ctx: Ec2Context,
  config: ResolvedConfig,
  override: QueryNode,
  capacityType: CapacityType,
  instanceType: string,
  zone: string | undefined,
  price: number | undefined,
): FleetFailure | undefined {
  if (config.missing) return config.missing;
  const data = config.template?.data;
  const type = ctx.state.instanceTypes.get(instanceType);
  if (!type)
    return { code: 'InvalidParameterValue', message: `Invalid value '${instanceType}' for InstanceType.` };
  const subnetId = str(override, 'SubnetId');
  if (subnetId !== undefined && !ctx.state.subnets.has(subnetId)) {
    return { code: 'InvalidSubnetID.NotFound', message: `The subnet ID '${subnetId}' does not exist` };
  }
  if (zone === undefined)
    return {
      code: 'InvalidParameterValue',
      message: 'Overrides: a SubnetId or AvailabilityZone is required',
    };
  if (!ctx.state.isOffered(instanceType, zone)) {
    const offered = ctx.state.zones
      .filter((z) => ctx.state.isOffered(instanceType, z.name))
      .map((z) => z.name);
    return {
      code: 'Unsupported',
      message: `Your requested instance type (${instanceType}) is not supported in your requested Availability Zone (${zone}). Please retry your request by not specifying an Availability Zone or choosing ${offered.join(', ')}.`,
    };
  }
  const imageId = str(override, 'ImageId') ?? str(data, 'ImageId');
  if (imageId === undefined)
    return { code: 'MissingParameter', message: 'The request must contain the parameter ImageId' };
  const image = ctx.state.images.get(imageId);
  if (!image) return { code: 'InvalidAMIID.NotFound', message: `The image id '[${imageId}]' does not exist` };
  if (image.architecture !== type.architecture) {
    return {
      code: 'InvalidParameterValue',
      message: `The architecture '${type.architecture}' of the specified instance type does not match the architecture '${image.architecture}' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again.`,
    };
  }
  for (const sg of strs(data, 'SecurityGroupId')) {
    if (!ctx.state.securityGroups.has(sg)) {
      return { code: 'InvalidGroup.NotFound', message: `The security group '${sg}' does not exist in VPC` };
    }
  }
  const profile = struct(data, 'IamInstanceProfile');
  const profileName = str(profile, 'Name') ?? str(profile, 'Arn')?.split('/').pop();
  if (profileName !== undefined && ctx.instanceProfileExists?.(profileName) === false) {
    return {
      code: 'InvalidParameterValue',
      message: `Value (${profileName}) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name`,
    };
  }
  const maxPrice = str(override, 'MaxPrice');
  if (capacityType === 'spot' && maxPrice !== undefined && price !== undefined && Number(maxPrice) < price) {
    return {
      code: 'SpotMaxPriceTooLow',
      message: `Your Spot request price of ${maxPrice} is lower than the minimum required Spot request fulfillment price of ${price}.`,
    };
  }
  return undefined;
}

function candidatesFor(
  configs: readonly ResolvedConfig[],
  capacityType: CapacityType,
  ctx: Ec2Context,
): Candidate[] {
  const out: Candidate[] = [];
  configs.forEach((config, c) => {
    config.overrides.forEach((override, o) => {
      const instanceType = str(override, 'InstanceType') ?? str(config.template?.data, 'InstanceType') ?? '';
      const subnetId = str(override, 'SubnetId') ?? subnetForZone(ctx, str(override, 'AvailabilityZone'));
      const zone = ctx.state.subnets.get(subnetId ?? '')?.zone ?? str(override, 'AvailabilityZone');
      const type = ctx.state.instanceTypes.get(instanceType);
      const price =
        capacityType === 'spot' && zone !== undefined
          ? ctx.state.currentSpotPrice(instanceType, zone)
          : type?.onDemandUsd;
      const failure = staticFailure(ctx, config, override, capacityType, instanceType, zone, price);
      const pool = `${capacityType}:${instanceType}:${zone ?? ''}`;
      out.push({
        order: c * 1000 + o,
        instanceType,
        zone: zone ?? '',
        subnetId: subnetId ?? '',
        priority: int(override, 'Priority'),
        price,
        ...(failure ? { failure } : {}),
        limits: [
          {
            key: pool,
            failure: {
              code: 'InsufficientInstanceCapacity',
              message: `We currently do not have sufficient ${instanceType} capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity. You can currently get ${instanceType} capacity by not specifying an Availability Zone in your request or choosing other Availability Zones.`,
            },
          },
          {
            key: `subnet:${subnetId}`,
            failure: {
              code: 'InsufficientFreeAddressesInSubnet',
              message: `There are not enough free addresses in subnet '${subnetId}' to satisfy the requested number of instances.`,
            },
          },
        ],
        config,
        override,
      });
    });
  });
  return out;
}

function subnetForZone(ctx: Ec2Context, zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  for (const s of ctx.state.subnets.values()) if (s.zone === zone) return s.id;
  return undefined;
}

function limitsFor(
  candidates: readonly Candidate[],
  capacityType: CapacityType,
  ctx: Ec2Context,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of candidates) {
    const left = ctx.faults.capacityLeft({ capacityType, instanceType: c.instanceType, zone: c.zone });
    if (left !== undefined) out.set(`${capacityType}:${c.instanceType}:${c.zone}`, left);
    const subnet = ctx.state.subnets.get(c.subnetId);
    if (subnet) out.set(`subnet:${c.subnetId}`, subnet.availableIps);
  }
  return out;
}

function overridesXml(c: Candidate): XmlObject {
  const spec = c.config.spec;
  return {
    launchTemplateSpecification: {
      launchTemplateId: c.config.template?.id ?? str(spec, 'LaunchTemplateId'),
      launchTemplateName: c.config.template ? undefined : str(spec, 'LaunchTemplateName'),
      version: str(spec, 'Version') ?? '$Default',
    },
    overrides: {
      instanceType: c.instanceType || undefined,
      subnetId: c.subnetId || undefined,
      availabilityZone: c.zone || undefined,
      priority: c.priority,
      maxPrice: str(c.override, 'MaxPrice'),
      imageId: str(c.override, 'ImageId'),
    },
  };
}

function launchOne(
  c: Candidate,
  capacityType: CapacityType,
  fleetId: string,
  fleetTags: ReadonlyMap<string, string>,
  fleetVolumeTags: ReadonlyMap<string, string>,
  ctx: Ec2Context,
): Ec2Instance {
  const { state } = ctx;
  const data = c.config.template?.data ?? {};
  const subnet = state.subnets.get(c.subnetId);
  if (!subnet) throw new Error(`aws mock: subnet ${c.subnetId} vanished during CreateFleet`);
  const type = state.instanceTypes.get(c.instanceType);
  if (!type) throw new Error(`aws mock: instance type ${c.instanceType} vanished during CreateFleet`);
  const ip = allocateAddress(subnet);
  subnet.availableIps--;
  const templateSpecs = structs(data, 'TagSpecification');
  const tags = new Map([...tagsFor(templateSpecs, 'instance'), ...fleetTags]);
  const volumeTags = new Map([...tagsFor(templateSpecs, 'volume'), ...fleetVolumeTags]);
  const id = state.nextId('i');
  const profile = struct(data, 'IamInstanceProfile');
  const root = structs(data, 'BlockDeviceMapping').find((b) => struct(b, 'Ebs') !== undefined);
  return {
    id,
    instanceType: c.instanceType,
    architecture: type.architecture,
    zone: subnet.zone,
    zoneId: subnet.zoneId,
    subnetId: subnet.id,
    vpcId: subnet.vpcId,
    imageId: str(c.override, 'ImageId') ?? str(data, 'ImageId'),
    privateIp: ip,
    privateDnsName: `ip-${ip.replaceAll('.', '-')}.${privateDnsSuffix(state.region)}`,
    launchTime: ctx.clock.now(),
    state: 'pending',
    stateTransitionReason: '',
    lifecycle: capacityType,
    spotInstanceRequestId: capacityType === 'spot' ? `sir-${hexOf(id, 8)}` : undefined,
    capacityReservationId: undefined,
    securityGroups: strs(data, 'SecurityGroupId').map((g) => ({
      id: g,
      name: state.securityGroups.get(g)?.name ?? g,
    })),
    tags,
    volumeTags,
    launchTemplate: {
      id: c.config.template?.id ?? '',
      name: c.config.template?.name ?? '',
      version: str(c.config.spec, 'Version') ?? '$Default',
    },
    userData: str(data, 'UserData'),
    iamInstanceProfile: profile ? { arn: str(profile, 'Arn'), name: str(profile, 'Name') } : undefined,
    rootVolumeGiB: Number(str(struct(root, 'Ebs'), 'VolumeSize') ?? 20),
    fleetId,
  };
}

/**
 * CreateFleet, type `instant` only: ranks every config x override by the capacity type's
 * allocation strategy, launches what the pools and subnets allow, and reports the pools that
 * failed in `errorSet` — insufficient capacity is a 200 with errors, as in EC2.
 */
export const createFleet: Ec2Action = (request, ctx) => {
  const type = str(request, 'Type') ?? 'maintain';
  if (type !== 'instant') {
    throw new Ec2Error(
      'InvalidParameterValue',
      `Type: the mock supports only 'instant' fleets, not '${type}'`,
    );
  }
  const configs = structs(request, 'LaunchTemplateConfigs');
  if (configs.length === 0) throw missingParameter('LaunchTemplateConfigs');
  const target = struct(request, 'TargetCapacitySpecification');
  const total = int(target, 'TotalTargetCapacity');
  if (total === undefined) throw missingParameter('TargetCapacitySpecification.TotalTargetCapacity');
  const defaultType = (str(target, 'DefaultTargetCapacityType') ?? 'on-demand') as CapacityType;
  if (defaultType !== 'spot' && defaultType !== 'on-demand') {
    throw new Ec2Error(
      'InvalidParameterValue',
      `TargetCapacitySpecification.DefaultTargetCapacityType: '${defaultType}' is not mocked (spot, on-demand)`,
    );
  }
  const onDemand = int(target, 'OnDemandTargetCapacity') ?? 0;
  const spot = int(target, 'SpotTargetCapacity') ?? 0;
  const rest = Math.max(0, total - onDemand - spot);
  const wanted: Record<CapacityType, number> = {
    'on-demand': onDemand + (defaultType === 'on-demand' ? rest : 0),
    spot: spot + (defaultType === 'spot' ? rest : 0),
  };
  const strategyOf = (node: QueryNode | undefined): AllocationStrategy => {
    const s = str(node, 'AllocationStrategy') ?? 'lowest-price';
    if (!STRATEGIES.includes(s as AllocationStrategy)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `AllocationStrategy: '${s}' is not one of ${STRATEGIES.join(', ')}`,
      );
    }
    return s as AllocationStrategy;
  };
  const strategies: Record<CapacityType, AllocationStrategy> = {
    spot: strategyOf(struct(request, 'SpotOptions')),
    'on-demand': strategyOf(struct(request, 'OnDemandOptions')),
  };
  const resolved = configs.map((c) => resolveConfig(c, ctx));
  const tagSpecs = structs(request, 'TagSpecification');
  const fleetId = fleetIdFrom(hexOf(ctx.state.nextId('fleet'), 32));
  const instancesXml: XmlObject[] = [];
  const errorsXml: XmlObject[] = [];
  const launched: Ec2Instance[] = [];
  for (const capacityType of ['on-demand', 'spot'] as const) {
    const count = wanted[capacityType];
    if (count === 0) continue;
    const candidates = candidatesFor(resolved, capacityType, ctx);
    const plan = planFleet(
      candidates,
      strategies[capacityType],
      count,
      limitsFor(candidates, capacityType, ctx),
    );
    for (const { candidate, count: n } of plan.launches) {
      const c = candidate as Candidate;
      const ids: string[] = [];
      for (let k = 0; k < n; k++) {
        const instance = launchOne(
          c,
          capacityType,
          fleetId,
          tagsFor(tagSpecs, 'instance'),
          tagsFor(tagSpecs, 'volume'),
          ctx,
        );
        launched.push(instance);
        ids.push(instance.id);
      }
      ctx.faults.consumeCapacity({ capacityType, instanceType: c.instanceType, zone: c.zone }, n);
      instancesXml.push({
        launchTemplateAndOverrides: overridesXml(c),
        lifecycle: capacityType,
        instanceIds: ids,
        instanceType: c.instanceType,
      });
    }
    for (const { candidate, failure } of plan.errors) {
      errorsXml.push({
        launchTemplateAndOverrides: overridesXml(candidate as Candidate),
        lifecycle: capacityType,
        errorCode: failure.code,
        errorMessage: failure.message,
      });
    }
  }
  ctx.state.fleets.set(fleetId, {
    id: fleetId,
    tags: tagsFor(tagSpecs, 'fleet'),
    instanceIds: launched.map((i) => i.id),
  });
  for (const instance of launched) ctx.lifecycle.launch(instance);
  return {
    fleetId,
    errorSet: errorsXml,
    fleetInstanceSet: instancesXml,
  };
};

/** EC2 fleet ids are `fleet-` and a UUID. */
function fleetIdFrom(hex: string): string {
  return `fleet-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
