import { str, strs } from '../../query/form.js';
import type { XmlObject } from '../../query/xml.js';
import type { ImageSeed, InstanceTypeFacts, SecurityGroupSeed, SpotPricePoint } from '../../seed/index.js';
import type { Ec2Action } from '../context.js';
import { Ec2Error, notFound } from '../errors.js';
import { matchesFilters, readFilters, tagFieldValues, tagSet } from '../filters.js';
import { paginate } from '../pagination.js';
import type { Ec2Subnet } from '../state.js';

const tagsOf = (tags: Readonly<Record<string, string>>) => new Map(Object.entries(tags));

function subnetFields(s: Ec2Subnet, name: string): readonly string[] | undefined {
  switch (name) {
    case 'subnet-id':
      return [s.id];
    case 'vpc-id':
      return [s.vpcId];
    case 'availability-zone':
      return [s.zone];
    case 'availability-zone-id':
      return [s.zoneId];
    case 'cidr-block':
    case 'cidr':
      return [s.cidr];
    case 'state':
      return ['available'];
    case 'default-for-az':
      return ['false'];
    case 'available-ip-address-count':
      return [String(s.availableIps)];
    default:
      return tagFieldValues(tagsOf(s.tags), name);
  }
}

export const describeSubnets: Ec2Action = (request, { state, accountId }) => {
  const ids = strs(request, 'SubnetId');
  for (const id of ids) if (!state.subnets.has(id)) throw notFound.subnet(id);
  const filters = readFilters(request);
  const matched = [...state.subnets.values()].filter(
    (s) => (ids.length === 0 || ids.includes(s.id)) && matchesFilters(s, filters, subnetFields),
  );
  const page = paginate('DescribeSubnets', matched, request, { min: 5, max: 1000 });
  return {
    subnetSet: page.items.map((s) => ({
      subnetId: s.id,
      subnetArn: `arn:aws:ec2:${state.region}:${accountId}:subnet/${s.id}`,
      state: 'available',
      vpcId: s.vpcId,
      ownerId: accountId,
      cidrBlock: s.cidr,
      availableIpAddressCount: s.availableIps,
      availabilityZone: s.zone,
      availabilityZoneId: s.zoneId,
      defaultForAz: false,
      mapPublicIpOnLaunch: false,
      tagSet: tagSet(tagsOf(s.tags)),
    })),
    nextToken: page.nextToken,
  };
};

function groupFields(g: SecurityGroupSeed, name: string): readonly string[] | undefined {
  switch (name) {
    case 'group-id':
      return [g.id];
    case 'group-name':
      return [g.name];
    case 'vpc-id':
      return [g.vpcId];
    case 'description':
      return [g.description];
    default:
      return tagFieldValues(tagsOf(g.tags), name);
  }
}

export const describeSecurityGroups: Ec2Action = (request, { state, accountId }) => {
  const ids = strs(request, 'GroupId');
  const names = strs(request, 'GroupName');
  for (const id of ids) if (!state.securityGroups.has(id)) throw notFound.group(id);
  const all = [...state.securityGroups.values()];
  for (const n of names) if (!all.some((g) => g.name === n)) throw notFound.group(n);
  const filters = readFilters(request);
  const matched = all.filter(
    (g) =>
      (ids.length === 0 || ids.includes(g.id)) &&
      (names.length === 0 || names.includes(g.name)) &&
      matchesFilters(g, filters, groupFields),
  );
  const page = paginate('DescribeSecurityGroups', matched, request, { min: 5, max: 1000 });
  return {
    securityGroupInfo: page.items.map((g) => ({
      ownerId: accountId,
      groupId: g.id,
      groupName: g.name,
      groupDescription: g.description,
      vpcId: g.vpcId,
      securityGroupArn: `arn:aws:ec2:${state.region}:${accountId}:security-group/${g.id}`,
      ipPermissions: [],
      ipPermissionsEgress: [{ ipProtocol: '-1', ipRanges: [{ cidrIp: '0.0.0.0/0' }] }],
      tagSet: tagSet(tagsOf(g.tags)),
    })),
    nextToken: page.nextToken,
  };
};

function imageFields(i: ImageSeed, name: string): readonly string[] | undefined {
  switch (name) {
    case 'image-id':
      return [i.id];
    case 'name':
      return [i.name];
    case 'architecture':
      return [i.architecture];
    case 'owner-id':
      return [i.ownerId];
    case 'owner-alias':
      return i.ownerAlias ? [i.ownerAlias] : [];
    case 'state':
      return ['available'];
    case 'image-type':
      return ['machine'];
    case 'is-public':
      return [String(i.ownerAlias === 'amazon')];
    case 'virtualization-type':
      return ['hvm'];
    case 'root-device-type':
      return ['ebs'];
    case 'description':
      return [i.description];
    default:
      return tagFieldValues(tagsOf(i.tags), name);
  }
}

export const describeImages: Ec2Action = (request, { state, accountId }) => {
  const ids = strs(request, 'ImageId');
  for (const id of ids) if (!state.images.has(id)) throw notFound.image(id);
  const owners = strs(request, 'Owner');
  const ownedBy = (i: ImageSeed) =>
    owners.length === 0 ||
    owners.some((o) => (o === 'self' ? i.ownerId === accountId : o === i.ownerId || o === i.ownerAlias));
  const filters = readFilters(request);
  const matched = [...state.images.values()].filter(
    (i) => (ids.length === 0 || ids.includes(i.id)) && ownedBy(i) && matchesFilters(i, filters, imageFields),
  );
  const page = paginate('DescribeImages', matched, request, { min: 5, max: 1000 });
  return {
    imagesSet: page.items.map((i) => ({
      imageId: i.id,
      imageLocation: `${i.ownerAlias ?? i.ownerId}/${i.name}`,
      imageState: 'available',
      imageOwnerId: i.ownerId,
      creationDate: i.creationDate,
      isPublic: i.ownerAlias === 'amazon',
      architecture: i.architecture,
      imageType: 'machine',
      imageOwnerAlias: i.ownerAlias,
      name: i.name,
      description: i.description,
      rootDeviceType: 'ebs',
      rootDeviceName: '/dev/xvda',
      blockDeviceMapping: [
        {
          deviceName: '/dev/xvda',
          ebs: { volumeSize: 20, volumeType: 'gp3', deleteOnTermination: true, encrypted: false },
        },
      ],
      virtualizationType: 'hvm',
      hypervisor: 'xen',
      enaSupport: true,
      platformDetails: 'Linux/UNIX',
      usageOperation: 'RunInstances',
      bootMode: i.architecture === 'arm64' ? 'uefi' : 'uefi-preferred',
      tagSet: Object.keys(i.tags).length > 0 ? tagSet(tagsOf(i.tags)) : undefined,
    })),
    nextToken: page.nextToken,
  };
};

function typeFields(t: InstanceTypeFacts, name: string): readonly string[] | undefined {
  switch (name) {
    case 'instance-type':
      return [t.name];
    case 'supported-virtualization-type':
      return ['hvm'];
    case 'processor-info.supported-architecture':
      return [t.architecture];
    case 'processor-info.manufacturer':
      return [t.manufacturer];
    case 'current-generation':
      return [String(t.currentGeneration)];
    case 'hypervisor':
      return [t.hypervisor];
    case 'burstable-performance-supported':
      return [String(t.burstable)];
    case 'bare-metal':
      return ['false'];
    case 'vcpu-info.default-vcpus':
      return [String(t.vcpus)];
    case 'memory-info.size-in-mib':
      return [String(t.memoryMiB)];
    case 'instance-storage-supported':
      return [String(t.localNvmeGB !== undefined)];
    case 'supported-usage-class':
      return ['on-demand', 'spot'];
    default:
      return undefined;
  }
}

/** DescribeInstanceTypes' item for one type. */
export function instanceTypeXml(t: InstanceTypeFacts): XmlObject {
  const arm = t.architecture === 'arm64';
  const nitro = t.hypervisor === 'nitro';
  return {
    instanceType: t.name,
    currentGeneration: t.currentGeneration,
    freeTierEligible: false,
    supportedUsageClasses: ['on-demand', 'spot'],
    supportedRootDeviceTypes: ['ebs'],
    supportedVirtualizationTypes: ['hvm'],
    bareMetal: false,
    hypervisor: t.hypervisor,
    processorInfo: {
      supportedArchitectures: [t.architecture],
      sustainedClockSpeedInGhz: t.clockGhz,
      manufacturer: t.manufacturer,
    },
    vCpuInfo: {
      defaultVCpus: t.vcpus,
      defaultCores: arm ? t.vcpus : Math.max(1, t.vcpus / 2),
      defaultThreadsPerCore: arm ? 1 : 2,
    },
    memoryInfo: { sizeInMiB: t.memoryMiB },
    instanceStorageSupported: t.localNvmeGB !== undefined,
    instanceStorageInfo:
      t.localNvmeGB === undefined
        ? undefined
        : {
            totalSizeInGB: t.localNvmeGB,
            disks: [{ sizeInGB: t.localNvmeGB, count: 1, type: 'ssd' }],
            nvmeSupport: 'required',
            encryptionSupport: 'required',
          },
    ebsInfo: {
      ebsOptimizedSupport: 'default',
      encryptionSupport: 'supported',
      nvmeSupport: nitro ? 'required' : 'unsupported',
    },
    networkInfo: {
      networkPerformance: t.networkPerformance,
      maximumNetworkInterfaces: t.maxEnis,
      maximumNetworkCards: 1,
      defaultNetworkCardIndex: 0,
      networkCards: [
        {
          networkCardIndex: 0,
          networkPerformance: t.networkPerformance,
          maximumNetworkInterfaces: t.maxEnis,
        },
      ],
      ipv4AddressesPerInterface: t.ipv4PerEni,
      ipv6AddressesPerInterface: t.ipv4PerEni,
      ipv6Supported: true,
      enaSupport: nitro ? 'required' : 'supported',
      efaSupported: false,
      encryptionInTransitSupported: nitro && !t.name.startsWith('t3') && !/^[mcr]5/.test(t.name),
    },
    gpuInfo: t.gpu
      ? {
          gpus: [
            {
              name: t.gpu.name,
              manufacturer: t.gpu.manufacturer,
              count: t.gpu.count,
              memoryInfo: { sizeInMiB: t.gpu.memoryMiB },
            },
          ],
          totalGpuMemoryInMiB: t.gpu.count * t.gpu.memoryMiB,
        }
      : undefined,
    placementGroupInfo: { supportedStrategies: ['cluster', 'partition', 'spread'] },
    hibernationSupported: !arm && !t.gpu,
    burstablePerformanceSupported: t.burstable,
    dedicatedHostsSupported: !t.burstable,
    autoRecoverySupported: t.localNvmeGB === undefined,
    supportedBootModes: arm ? ['uefi'] : ['legacy-bios', 'uefi'],
    nitroEnclavesSupport: nitro && t.vcpus >= 4 && !t.burstable ? 'supported' : 'unsupported',
    nitroTpmSupport: nitro ? 'supported' : 'unsupported',
  };
}

export const describeInstanceTypes: Ec2Action = (request, { state }) => {
  const names = strs(request, 'InstanceType');
  for (const n of names) {
    if (!state.instanceTypes.has(n)) {
      throw new Ec2Error('InvalidInstanceType', `The following supplied instance types do not exist: [${n}]`);
    }
  }
  const filters = readFilters(request);
  const matched = [...state.instanceTypes.values()].filter(
    (t) => (names.length === 0 || names.includes(t.name)) && matchesFilters(t, filters, typeFields),
  );
  const page = paginate('DescribeInstanceTypes', matched, request, { min: 5, max: 100, defaultSize: 100 });
  return { instanceTypeSet: page.items.map(instanceTypeXml), nextToken: page.nextToken };
};

export const describeInstanceTypeOfferings: Ec2Action = (request, { state }) => {
  const locationType = str(request, 'LocationType') ?? 'region';
  if (!['region', 'availability-zone', 'availability-zone-id'].includes(locationType)) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `LocationType: '${locationType}' is not one of region, availability-zone, availability-zone-id`,
    );
  }
  const rows: { instanceType: string; location: string }[] = [];
  for (const t of state.instanceTypes.values()) {
    if (locationType === 'region') {
      if (state.zones.some((z) => state.isOffered(t.name, z.name)))
        rows.push({ instanceType: t.name, location: state.region });
      continue;
    }
    for (const z of state.zones) {
      if (state.isOffered(t.name, z.name)) {
        rows.push({ instanceType: t.name, location: locationType === 'availability-zone' ? z.name : z.id });
      }
    }
  }
  const filters = readFilters(request);
  const fields = (r: { instanceType: string; location: string }, name: string) =>
    name === 'instance-type' ? [r.instanceType] : name === 'location' ? [r.location] : undefined;
  const matched = rows.filter((r) => matchesFilters(r, filters, fields));
  const page = paginate('DescribeInstanceTypeOfferings', matched, request, {
    min: 5,
    max: 1000,
    defaultSize: 1000,
  });
  return {
    instanceTypeOfferingSet: page.items.map((r) => ({
      instanceType: r.instanceType,
      locationType,
      location: r.location,
    })),
    nextToken: page.nextToken,
  };
};

function spotFields(p: SpotPricePoint, name: string): readonly string[] | undefined {
  switch (name) {
    case 'instance-type':
      return [p.instanceType];
    case 'availability-zone':
      return [p.zone];
    case 'product-description':
      return [p.productDescription];
    case 'spot-price':
      return [p.usd.toFixed(6)];
    default:
      return undefined;
  }
}

/** Parses an ISO timestamp field; the error names the field. */
function timeField(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new Ec2Error('InvalidParameterValue', `${field}: '${value}' is not a timestamp`);
  return t;
}

/**
 * DescribeSpotPriceHistory: the points in effect during [StartTime, EndTime] — the last change
 * at or before StartTime for each series plus every later one — newest first.
 */
export const describeSpotPriceHistory: Ec2Action = (request, { state, clock }) => {
  const types = strs(request, 'InstanceType');
  const products = strs(request, 'ProductDescription');
  const zone = str(request, 'AvailabilityZone');
  const start = timeField(str(request, 'StartTime'), 'StartTime');
  const end = timeField(str(request, 'EndTime'), 'EndTime') ?? clock.now();
  const filters = readFilters(request);
  const candidates = state.spotPrices.filter(
    (p) =>
      (types.length === 0 || types.includes(p.instanceType)) &&
      (products.length === 0 || products.includes(p.productDescription)) &&
      (zone === undefined || p.zone === zone) &&
      p.timestamp <= end &&
      matchesFilters(p, filters, spotFields),
  );
  const inEffect = new Map<string, SpotPricePoint>();
  const later: SpotPricePoint[] = [];
  for (const p of candidates) {
    if (start !== undefined && p.timestamp > start) {
      later.push(p);
      continue;
    }
    const key = `${p.instanceType}/${p.zone}/${p.productDescription}`;
    const have = inEffect.get(key);
    if (!have || p.timestamp > have.timestamp) inEffect.set(key, p);
  }
  const points = start === undefined ? candidates : [...inEffect.values(), ...later];
  const sorted = [...points].sort(
    (a, b) =>
      b.timestamp - a.timestamp ||
      a.instanceType.localeCompare(b.instanceType) ||
      a.zone.localeCompare(b.zone),
  );
  const page = paginate('DescribeSpotPriceHistory', sorted, request, {
    min: 1,
    max: 1000,
    defaultSize: 1000,
  });
  return {
    spotPriceHistorySet: page.items.map((p) => ({
      availabilityZone: p.zone,
      availabilityZoneId: p.zoneId,
      instanceType: p.instanceType,
      productDescription: p.productDescription,
      spotPrice: p.usd.toFixed(6),
      timestamp: new Date(p.timestamp),
    })),
    nextToken: page.nextToken,
  };
};
