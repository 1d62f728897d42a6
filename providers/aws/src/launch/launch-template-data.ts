import type {
  LaunchTemplateBlockDeviceMappingRequest,
  RequestLaunchTemplateData,
  Tag,
} from '@aws-sdk/client-ec2';
import { stableHash } from '@nodewright/core/apis';
import type { AMIFamily, BlockDeviceMapping, EC2NodeClass } from '../apis/index.js';
import { type BootstrapOptions, renderUserData } from './user-data.js';

/** Everything one launch template is made of; equal inputs name the same template. */
export interface LaunchTemplateInput {
  readonly clusterName: string;
  readonly nodeClass: EC2NodeClass;
  readonly family: AMIFamily;
  readonly imageId: string;
  readonly securityGroupIds: readonly string[];
  readonly instanceProfile: string;
  readonly bootstrap: BootstrapOptions;
  /** NodeClass tags plus the cluster-ownership tags, put on the template and its resources. */
  readonly tags: Readonly<Record<string, string>>;
}

/** A launch template to find or create: its name (from the hash of the data) and its data. */
export interface LaunchTemplateSpec {
  readonly name: string;
  readonly imageId: string;
  readonly data: RequestLaunchTemplateData;
  readonly tags: Tag[];
}

/** Prefix of every launch template name nodewright creates (for listing and cleanup). */
export const LaunchTemplateNamePrefix = 'nodewright.k8s.aws/';

const GiB = 2 ** 30;

/** EBS `VolumeSize` (GiB, rounded up) of a `volumeSize` such as 20Gi, 100G, 1Ti or 2T. */
export function volumeSizeGiB(size: string): number {
  const m = /^(\d+)(Gi|G|Ti|T)$/.exec(size);
  if (m === null) throw new Error(`blockDeviceMappings volumeSize ${JSON.stringify(size)} is not a size`);
  const n = Number(m[1]);
  switch (m[2]) {
    case 'Gi':
      return n;
    case 'Ti':
      return n * 1024;
    case 'G':
      return Math.ceil((n * 1e9) / GiB);
    default:
      return Math.ceil((n * 1e12) / GiB);
  }
}

/** The root volumes each family gets when the NodeClass names none (as upstream). */
export function defaultBlockDevices(family: AMIFamily): BlockDeviceMapping[] {
  const gp3 = (deviceName: string, volumeSize: string): BlockDeviceMapping => ({
    deviceName,
    ebs: { volumeSize, volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
  });
  switch (family) {
    case 'AL2':
    case 'AL2023':
      return [gp3('/dev/xvda', '20Gi')];
    case 'Bottlerocket':
      return [gp3('/dev/xvda', '4Gi'), gp3('/dev/xvdb', '20Gi')];
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return [gp3('/dev/sda1', '50Gi')];
    case 'Custom':
      return [];
  }
}

function blockDeviceMappings(
  nodeClass: EC2NodeClass,
  family: AMIFamily,
): LaunchTemplateBlockDeviceMappingRequest[] {
  const mappings = nodeClass.spec.blockDeviceMappings ?? defaultBlockDevices(family);
  return mappings.map((m) => {
    const ebs = m.ebs;
    return {
      ...(m.deviceName !== undefined ? { DeviceName: m.deviceName } : {}),
      ...(ebs === undefined
        ? {}
        : {
            Ebs: {
              ...(ebs.deleteOnTermination !== undefined
                ? { DeleteOnTermination: ebs.deleteOnTermination }
                : {}),
              ...(ebs.encrypted !== undefined ? { Encrypted: ebs.encrypted } : {}),
              ...(ebs.iops !== undefined ? { Iops: ebs.iops } : {}),
              ...(ebs.kmsKeyID !== undefined ? { KmsKeyId: ebs.kmsKeyID } : {}),
              ...(ebs.snapshotID !== undefined ? { SnapshotId: ebs.snapshotID } : {}),
              ...(ebs.throughput !== undefined ? { Throughput: ebs.throughput } : {}),
              ...(ebs.volumeInitializationRate !== undefined
                ? { VolumeInitializationRate: ebs.volumeInitializationRate }
                : {}),
              ...(ebs.volumeSize !== undefined ? { VolumeSize: volumeSizeGiB(ebs.volumeSize) } : {}),
              ...(ebs.volumeType !== undefined ? { VolumeType: ebs.volumeType } : {}),
            },
          }),
    };
  });
}

/** Tags as EC2 wants them, sorted by key so equal maps give equal requests. */
export function toEc2Tags(tags: Readonly<Record<string, string>>): Tag[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] }));
}

/**
 * The LaunchTemplateData for one (AMI, configuration) and the template's name: a hash of the
 * data and the cluster name, so a restarted controller finds its templates again by name and
 * two clusters in one account never share one. Instance type, subnet and capacity type are not
 * in the template: CreateFleet overrides them.
 */
export function launchTemplateSpec(input: LaunchTemplateInput): LaunchTemplateSpec {
  const { nodeClass, family } = input;
  const spec = nodeClass.spec;
  const userData = renderUserData(family, input.bootstrap);
  const sgs = [...input.securityGroupIds].sort();
  const ec2Tags = toEc2Tags(input.tags);
  const metadata = spec.metadataOptions;
  const data: RequestLaunchTemplateData = {
    ImageId: input.imageId,
    ...(userData !== '' ? { UserData: Buffer.from(userData, 'utf8').toString('base64') } : {}),
    IamInstanceProfile: { Name: input.instanceProfile },
    MetadataOptions: {
      HttpEndpoint: metadata.httpEndpoint,
      HttpProtocolIpv6: metadata.httpProtocolIPv6,
      HttpPutResponseHopLimit: metadata.httpPutResponseHopLimit,
      HttpTokens: metadata.httpTokens,
    },
    BlockDeviceMappings: blockDeviceMappings(nodeClass, family),
    Monitoring: { Enabled: spec.detailedMonitoring ?? false },
    // A public-IP choice can only be made on an explicit primary interface, and then the
    // security groups must sit on that interface instead of the template.
    ...(spec.associatePublicIPAddress !== undefined
      ? {
          NetworkInterfaces: [
            { DeviceIndex: 0, AssociatePublicIpAddress: spec.associatePublicIPAddress, Groups: sgs },
          ],
        }
      : { SecurityGroupIds: sgs }),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: ec2Tags },
      { ResourceType: 'volume', Tags: ec2Tags },
      { ResourceType: 'network-interface', Tags: ec2Tags },
    ],
  };
  const hash = stableHash({ cluster: input.clusterName, data });
  return { name: `${LaunchTemplateNamePrefix}${hash}`, imageId: input.imageId, data, tags: ec2Tags };
}
