import { randomBytes } from 'node:crypto';
import { checkApiVersion } from '../arm/api-versions.js';
import { asyncHeaders } from '../arm/async-reply.js';
import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError, notFound } from '../arm/errors.js';
import { parseResourceId, resourceId } from '../arm/resource-ids.js';
import { type ArmResource, ArmState } from '../arm/state.js';
import type { VmPriority } from '../faults/faults.js';
import type { ResourceSku } from '../seed/resource-skus.js';
import { checkGalleryImageId } from './gallery-image-versions.js';

const TYPE = 'Microsoft.Compute/virtualMachines';

interface VmBody {
  location?: string;
  zones?: string[];
  tags?: Record<string, string>;
  properties?: {
    hardwareProfile?: { vmSize?: string };
    priority?: VmPriority | 'Low';
    evictionPolicy?: 'Delete' | 'Deallocate';
    billingProfile?: { maxPrice?: number };
    osProfile?: {
      computerName?: string;
      customData?: string;
      adminPassword?: string;
      linuxConfiguration?: {
        disablePasswordAuthentication?: boolean;
        ssh?: { publicKeys?: { path?: string; keyData?: string }[] };
      };
    };
    storageProfile?: {
      imageReference?: { communityGalleryImageId?: string };
      osDisk?: { name?: string; diskSizeGB?: number; deleteOption?: string };
    };
    networkProfile?: { networkInterfaces?: { id?: string; properties?: { deleteOption?: string } }[] };
  };
}

const capability = (sku: ResourceSku, name: string) => sku.capabilities.find((c) => c.name === name)?.value;

function restricted(sku: ResourceSku, location: string, zone: string | undefined): boolean {
  return sku.restrictions.some((r) =>
    r.type === 'Location'
      ? r.values.some((v) => v.toLowerCase() === location)
      : zone !== undefined && (r.restrictionInfo.zones ?? []).includes(zone),
  );
}

/**
 * `PUT .../virtualMachines/{name}`: checks the request as ARM does (size, restrictions, Spot
 * capability, NICs, quota; synchronous errors), then answers 201 Creating with an async
 * operation. Allocation faults surface when that operation is polled to its end, leaving the
 * VM in provisioningState Failed, as a real failed allocation does.
 */
export function putVm(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('virtualMachines', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const key = ArmState.key(resourceGroup, name);
  const body = (req.body ?? {}) as VmBody;
  const existing = ctx.state.vms.get(key);
  if (existing !== undefined) {
    if (body.tags !== undefined) existing.tags = body.tags;
    return { status: 200, body: existing };
  }
  if (body.location?.toLowerCase() !== ctx.location) {
    throw new ArmError(
      400,
      'LocationRequired',
      `The location property is required and must be '${ctx.location}'.`,
    );
  }
  const size = body.properties?.hardwareProfile?.vmSize ?? '';
  const sku = ctx
    .skus()
    .find((s) => s.resourceType === 'virtualMachines' && s.name.toLowerCase() === size.toLowerCase());
  if (sku === undefined) {
    throw new ArmError(400, 'InvalidParameter', `The value ${size} provided for the VM size is not valid.`);
  }
  const zone = body.zones?.[0];
  if (restricted(sku, ctx.location, zone)) {
    throw new ArmError(
      409,
      'SkuNotAvailable',
      `The requested VM size ${size} is currently not available in location '${ctx.location}'${zone === undefined ? '' : ` zones '${zone}'`} for subscription '${ctx.subscriptionId}'.`,
    );
  }
  const priority: VmPriority =
    body.properties?.priority === 'Spot' || body.properties?.priority === 'Low' ? 'Spot' : 'Regular';
  if (priority === 'Spot' && capability(sku, 'LowPriorityCapable') !== 'True') {
    throw new ArmError(400, 'InvalidParameter', `The VM size ${size} does not support Spot priority.`);
  }
  if (priority === 'Spot' && body.properties?.evictionPolicy === undefined) {
    throw new ArmError(400, 'InvalidParameter', 'evictionPolicy is required for a Spot VM.');
  }
  const os = body.properties?.osProfile;
  const keys = os?.linuxConfiguration?.ssh?.publicKeys ?? [];
  const passwordLogin = os?.linuxConfiguration?.disablePasswordAuthentication !== true && os?.adminPassword;
  if (
    !passwordLogin &&
    !keys.some((k) => /^(ssh-(rsa|ed25519)|ecdsa-sha2-\S+) [A-Za-z0-9+/=]+/.test(k.keyData ?? ''))
  ) {
    throw new ArmError(
      400,
      'InvalidParameter',
      'Authentication using either SSH or by user name and password must be enabled in Linux profile.',
    );
  }
  const imageId = body.properties?.storageProfile?.imageReference?.communityGalleryImageId;
  if (imageId !== undefined) checkGalleryImageId(imageId, ctx);
  const nicRefs = body.properties?.networkProfile?.networkInterfaces ?? [];
  if (nicRefs.length === 0) {
    throw new ArmError(400, 'InvalidParameter', 'A virtual machine needs at least one network interface.');
  }
  const nics = nicRefs.map((ref) => {
    const parsed = parseResourceId(ref.id ?? '');
    const nic =
      parsed === undefined ? undefined : ctx.state.nics.get(ArmState.key(parsed.resourceGroup, parsed.name));
    if (nic === undefined) {
      throw new ArmError(
        400,
        'InvalidResourceReference',
        `Resource ${ref.id} referenced by resource ${name} was not found.`,
      );
    }
    if (nic.properties.virtualMachine !== undefined) {
      throw new ArmError(
        400,
        'NicInUse',
        `Network interface ${ref.id} is attached to another virtual machine.`,
      );
    }
    return nic;
  });
  const vCPUs = Number(capability(sku, 'vCPUs'));
  const quota = ctx.faults.quotaError(sku.family, priority, vCPUs, ctx.state.coresInUse(sku.family));
  if (quota !== undefined) throw quota;
  const allocation = ctx.faults.allocationError(sku.name, zone, priority);
  if (allocation !== undefined && allocation.status !== 200) throw allocation;

  const id = resourceId(ctx.subscriptionId, resourceGroup, 'Microsoft.Compute', 'virtualMachines', name);
  const osDisk = body.properties?.storageProfile?.osDisk ?? {};
  const diskName = osDisk.name ?? `${name}_OsDisk_1_${randomBytes(16).toString('hex')}`;
  const vm: ArmResource = {
    id,
    name,
    type: TYPE,
    location: ctx.location,
    ...(body.zones === undefined ? {} : { zones: body.zones }),
    ...(body.tags === undefined ? {} : { tags: body.tags }),
    properties: {
      ...body.properties,
      vmId: randomBytes(16).toString('hex'),
      storageProfile: {
        ...body.properties?.storageProfile,
        osDisk: {
          ...osDisk,
          name: diskName,
          managedDisk: {
            id: resourceId(ctx.subscriptionId, resourceGroup, 'Microsoft.Compute', 'disks', diskName),
          },
        },
      },
      osProfile: { ...body.properties?.osProfile, customData: undefined },
      provisioningState: 'Creating',
      timeCreated: new Date().toISOString(),
    },
  };
  ctx.state.vms.set(key, vm);
  for (const nic of nics) nic.properties.virtualMachine = { id };
  const customData = body.properties?.osProfile?.customData;
  if (customData !== undefined)
    ctx.state.customData.set(name, Buffer.from(customData, 'base64').toString('utf8'));
  const op = ctx.operations.start(() => {
    if (allocation !== undefined) {
      vm.properties.provisioningState = 'Failed';
      return { ok: false, error: allocation };
    }
    vm.properties.provisioningState = 'Succeeded';
    ctx.state.running.set(key, { name, size: sku.name, zone, priority, family: sku.family, vCPUs });
    ctx.state.disks.set(ArmState.key(resourceGroup, diskName), {
      id: resourceId(ctx.subscriptionId, resourceGroup, 'Microsoft.Compute', 'disks', diskName),
      name: diskName,
      type: 'Microsoft.Compute/disks',
      location: ctx.location,
      ...(body.zones === undefined ? {} : { zones: body.zones }),
      ...(body.tags === undefined ? {} : { tags: body.tags }),
      managedBy: id,
      properties: {
        diskSizeGB: osDisk.diskSizeGB ?? 30,
        diskState: 'Attached',
        osType: 'Linux',
        provisioningState: 'Succeeded',
      },
    });
    return { ok: true };
  });
  return {
    status: 201,
    body: vm,
    headers: asyncHeaders(ctx, 'Microsoft.Compute', op, req.query.get('api-version')!),
  };
}

export function getVm(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('virtualMachines', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const vm = ctx.state.vms.get(ArmState.key(resourceGroup, name));
  if (vm === undefined) throw notFound(TYPE, name, resourceGroup);
  return { status: 200, body: vm };
}

export function listVms(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('virtualMachines', req.query);
  const prefix = `${req.params.resourceGroup!.toLowerCase()}/`;
  return {
    status: 200,
    body: { value: [...ctx.state.vms].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v) },
  };
}

/** Removes a VM now, detaching its NICs and disk and deleting those whose deleteOption is Delete. */
export function removeVm(ctx: ArmContext, resourceGroup: string, name: string): void {
  const key = ArmState.key(resourceGroup, name);
  const vm = ctx.state.vms.get(key);
  if (vm === undefined) return;
  ctx.state.vms.delete(key);
  ctx.state.running.delete(key);
  const props = vm.properties as NonNullable<VmBody['properties']>;
  for (const ref of props.networkProfile?.networkInterfaces ?? []) {
    const parsed = parseResourceId(ref.id ?? '');
    if (parsed === undefined) continue;
    const nicKey = ArmState.key(parsed.resourceGroup, parsed.name);
    const nic = ctx.state.nics.get(nicKey);
    if (nic === undefined) continue;
    delete nic.properties.virtualMachine;
    if (ref.properties?.deleteOption === 'Delete') ctx.state.nics.delete(nicKey);
  }
  const osDisk = props.storageProfile?.osDisk;
  if (osDisk?.name !== undefined) {
    const diskKey = ArmState.key(resourceGroup, osDisk.name);
    const disk = ctx.state.disks.get(diskKey);
    if (disk !== undefined) {
      delete disk.managedBy;
      disk.properties.diskState = 'Unattached';
      if (osDisk.deleteOption === 'Delete') ctx.state.disks.delete(diskKey);
    }
  }
}

/** `DELETE .../virtualMachines/{name}`: 204 if absent, else 202 and an operation that removes it. */
export function deleteVm(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('virtualMachines', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const vm = ctx.state.vms.get(ArmState.key(resourceGroup, name));
  if (vm === undefined) return { status: 204 };
  vm.properties.provisioningState = 'Deleting';
  const op = ctx.operations.start(() => {
    removeVm(ctx, resourceGroup, name);
    return { ok: true };
  });
  return { status: 202, headers: asyncHeaders(ctx, 'Microsoft.Compute', op, req.query.get('api-version')!) };
}
