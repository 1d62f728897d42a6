import { strs, structs } from '../../query/form.js';
import type { XmlObject } from '../../query/xml.js';
import { hexOf } from '../../seed/hash.js';
import type { Ec2Action, Ec2Context } from '../context.js';
import { Ec2Error, missingParameter, notFound } from '../errors.js';
import { matchesFilters, readFilters, readTags, tagFieldValues, tagSet } from '../filters.js';
import { paginate } from '../pagination.js';
import { type Ec2Instance, INSTANCE_STATE_CODES } from '../state.js';

const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/;

function instanceFields(i: Ec2Instance, name: string): readonly string[] | undefined {
  switch (name) {
    case 'instance-id':
      return [i.id];
    case 'instance-type':
      return [i.instanceType];
    case 'instance-state-name':
      return [i.state];
    case 'instance-state-code':
      return [String(INSTANCE_STATE_CODES[i.state])];
    case 'availability-zone':
      return [i.zone];
    case 'subnet-id':
      return [i.subnetId];
    case 'vpc-id':
      return [i.vpcId];
    case 'image-id':
      return i.imageId ? [i.imageId] : [];
    case 'private-dns-name':
      return [i.privateDnsName];
    case 'private-ip-address':
      return [i.privateIp];
    case 'instance-lifecycle':
      return i.lifecycle === 'spot' ? ['spot'] : [];
    case 'architecture':
      return [i.architecture];
    case 'launch-template.launch-template-id':
      return [i.launchTemplate.id];
    case 'capacity-reservation-id':
      return i.capacityReservationId ? [i.capacityReservationId] : [];
    default:
      return tagFieldValues(i.tags, name);
  }
}

/** DescribeInstances' `instancesSet` item for one instance. */
export function instanceXml(i: Ec2Instance, ctx: Ec2Context): XmlObject {
  return {
    instanceId: i.id,
    imageId: i.imageId,
    instanceState: { code: INSTANCE_STATE_CODES[i.state], name: i.state },
    privateDnsName: i.state === 'terminated' ? '' : i.privateDnsName,
    dnsName: '',
    reason: i.stateTransitionReason,
    amiLaunchIndex: 0,
    productCodes: [],
    instanceType: i.instanceType,
    launchTime: new Date(i.launchTime),
    placement: { availabilityZone: i.zone, availabilityZoneId: i.zoneId, groupName: '', tenancy: 'default' },
    monitoring: { state: 'disabled' },
    subnetId: i.subnetId,
    vpcId: i.vpcId,
    privateIpAddress: i.state === 'terminated' ? undefined : i.privateIp,
    groupSet: i.securityGroups.map((g) => ({ groupId: g.id, groupName: g.name })),
    stateReason:
      i.state === 'terminated' || i.state === 'shutting-down'
        ? {
            code: 'Client.UserInitiatedShutdown',
            message: 'Client.UserInitiatedShutdown: User initiated shutdown',
          }
        : undefined,
    architecture: i.architecture,
    rootDeviceType: 'ebs',
    rootDeviceName: '/dev/xvda',
    blockDeviceMapping:
      i.state === 'terminated'
        ? []
        : [
            {
              deviceName: '/dev/xvda',
              ebs: {
                volumeId: `vol-0${hexOf(i.id, 16)}`,
                status: 'attached',
                attachTime: new Date(i.launchTime),
                deleteOnTermination: true,
              },
            },
          ],
    instanceLifecycle: i.lifecycle === 'spot' ? 'spot' : undefined,
    spotInstanceRequestId: i.spotInstanceRequestId,
    virtualizationType: 'hvm',
    clientToken: `fleet-${i.fleetId}`,
    tagSet: i.tags.size > 0 ? tagSet(i.tags) : undefined,
    // EC2 reports `xen` here for Nitro instances too; the type's hypervisor is in DescribeInstanceTypes.
    hypervisor: 'xen',
    iamInstanceProfile: i.iamInstanceProfile
      ? {
          arn:
            i.iamInstanceProfile.arn ??
            `arn:aws:iam::${ctx.accountId}:instance-profile/${i.iamInstanceProfile.name ?? 'unnamed'}`,
          id: `AIPA${hexOf(i.iamInstanceProfile.arn ?? i.iamInstanceProfile.name ?? '', 17).toUpperCase()}`,
        }
      : undefined,
    ebsOptimized: true,
    enaSupport: true,
    sourceDestCheck: true,
    capacityReservationId: i.capacityReservationId,
    metadataOptions: {
      state: 'applied',
      httpTokens: 'required',
      httpPutResponseHopLimit: 1,
      httpEndpoint: 'enabled',
    },
    bootMode: i.architecture === 'arm64' ? 'uefi' : 'legacy-bios',
    platformDetails: 'Linux/UNIX',
    usageOperation: 'RunInstances',
  };
}

/** Whether DescribeInstances still hides the instance, launched within the lag (faults.describeLag). */
function hidden(i: Ec2Instance, ctx: Ec2Context): boolean {
  return ctx.clock.now() - i.launchTime < ctx.faults.describeLagMs();
}

function checkIds(ids: readonly string[], ctx: Ec2Context, visible = (_: Ec2Instance) => true): void {
  const malformed = ids.find((id) => !INSTANCE_ID.test(id));
  if (malformed) throw new Ec2Error('InvalidInstanceID.Malformed', `Invalid id: "${malformed}"`);
  const missing = ids.filter((id) => {
    const instance = ctx.state.instances.get(id);
    return instance === undefined || !visible(instance);
  });
  if (missing.length === 1) throw notFound.instance(missing[0] ?? '');
  if (missing.length > 1) {
    throw new Ec2Error('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  }
}

/**
 * DescribeInstances: one reservation per fleet, instances paginated (MaxResults 5..1000, and
 * not together with InstanceIds, as EC2 insists).
 */
export const describeInstances: Ec2Action = (request, ctx) => {
  const ids = strs(request, 'InstanceId');
  const visible = (i: Ec2Instance) => !hidden(i, ctx);
  checkIds(ids, ctx, visible);
  if (ids.length > 0 && request.MaxResults !== undefined) {
    throw new Ec2Error(
      'InvalidParameterCombination',
      'The parameter instancesSet cannot be used with the parameter maxResults',
    );
  }
  const filters = readFilters(request);
  const matched = [...ctx.state.instances.values()].filter(
    (i) =>
      visible(i) && (ids.length === 0 || ids.includes(i.id)) && matchesFilters(i, filters, instanceFields),
  );
  const page = paginate('DescribeInstances', matched, request, { min: 5, max: 1000 });
  const reservations = new Map<string, Ec2Instance[]>();
  for (const i of page.items) reservations.set(i.fleetId, [...(reservations.get(i.fleetId) ?? []), i]);
  return {
    reservationSet: [...reservations].map(([fleetId, instances]) => ({
      reservationId: `r-0${hexOf(fleetId, 16)}`,
      ownerId: ctx.accountId,
      requesterId: '260473268488',
      groupSet: [],
      instancesSet: instances.map((i) => instanceXml(i, ctx)),
    })),
    nextToken: page.nextToken,
  };
};

export const terminateInstances: Ec2Action = (request, ctx) => {
  const ids = strs(request, 'InstanceId');
  if (ids.length === 0) throw missingParameter('InstanceId');
  checkIds(ids, ctx);
  return {
    instancesSet: ids.map((id) => {
      const previous = ctx.lifecycle.terminate(id);
      const current = ctx.state.instances.get(id)?.state ?? 'terminated';
      return {
        instanceId: id,
        currentState: { code: INSTANCE_STATE_CODES[current], name: current },
        previousState: { code: INSTANCE_STATE_CODES[previous], name: previous },
      };
    }),
  };
};

/** CreateTags on instances, launch templates and fleets (the resources this mock tracks tags of). */
export const createTags: Ec2Action = (request, ctx) => {
  const resources = strs(request, 'ResourceId');
  if (resources.length === 0) throw missingParameter('ResourceId');
  if (structs(request, 'Tag').length === 0) throw missingParameter('Tag');
  const tags = readTags(request);
  const targets = resources.map((id) => {
    const target = id.startsWith('i-')
      ? ctx.state.instances.get(id)?.tags
      : id.startsWith('lt-')
        ? ctx.state.launchTemplates.get(id)?.tags
        : id.startsWith('fleet-')
          ? ctx.state.fleets.get(id)?.tags
          : undefined;
    if (target) return target;
    if (id.startsWith('i-')) throw notFound.instance(id);
    throw new Ec2Error('InvalidID', `The ID '${id}' is not valid`);
  });
  for (const target of targets) for (const [k, v] of tags) target.set(k, v);
  return { return: true };
};
