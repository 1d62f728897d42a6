import { checkApiVersion } from '../arm/api-versions.js';
import { asyncHeaders } from '../arm/async-reply.js';
import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError, notFound } from '../arm/errors.js';
import { resourceId } from '../arm/resource-ids.js';
import { type ArmResource, ArmState } from '../arm/state.js';

const TYPE = 'Microsoft.Network/networkInterfaces';

interface NicBody {
  location?: string;
  tags?: Record<string, string>;
  properties?: {
    ipConfigurations?: { name?: string; properties?: { subnet?: { id?: string }; primary?: boolean } }[];
    enableAcceleratedNetworking?: boolean;
  };
}

/** `PUT .../networkInterfaces/{name}`: 201 Updating, Succeeded once its operation is polled. */
export function putNic(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('networkInterfaces', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const body = (req.body ?? {}) as NicBody;
  if (body.location?.toLowerCase() !== ctx.location) {
    throw new ArmError(
      400,
      'LocationRequired',
      `The location property is required and must be '${ctx.location}'.`,
    );
  }
  const configs = body.properties?.ipConfigurations ?? [];
  if (configs.length === 0 || configs.some((c) => !c.properties?.subnet?.id)) {
    throw new ArmError(
      400,
      'InvalidRequestFormat',
      'Every ipConfiguration of a network interface needs a subnet id.',
    );
  }
  const key = ArmState.key(resourceGroup, name);
  const existing = ctx.state.nics.get(key);
  const index = ctx.state.nics.size + 4;
  const nic: ArmResource = {
    id: resourceId(ctx.subscriptionId, resourceGroup, 'Microsoft.Network', 'networkInterfaces', name),
    name,
    type: TYPE,
    location: ctx.location,
    ...(body.tags === undefined ? {} : { tags: body.tags }),
    properties: {
      ...body.properties,
      ipConfigurations: configs.map((c, i) => ({
        name: c.name ?? `ipconfig${i + 1}`,
        properties: {
          ...c.properties,
          privateIPAddress: `10.224.${Math.floor(index / 250)}.${index % 250}`,
          privateIPAllocationMethod: 'Dynamic',
          provisioningState: 'Succeeded',
        },
      })),
      provisioningState: existing === undefined ? 'Updating' : 'Succeeded',
      ...(existing?.properties.virtualMachine === undefined
        ? {}
        : { virtualMachine: existing.properties.virtualMachine }),
    },
  };
  ctx.state.nics.set(key, nic);
  if (existing !== undefined) return { status: 200, body: nic };
  const op = ctx.operations.start(() => {
    nic.properties.provisioningState = 'Succeeded';
    return { ok: true };
  });
  return {
    status: 201,
    body: nic,
    headers: asyncHeaders(ctx, 'Microsoft.Network', op, req.query.get('api-version')!),
  };
}

export function getNic(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('networkInterfaces', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const nic = ctx.state.nics.get(ArmState.key(resourceGroup, name));
  if (nic === undefined) throw notFound(TYPE, name, resourceGroup);
  return { status: 200, body: nic };
}

export function listNics(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('networkInterfaces', req.query);
  const prefix = `${req.params.resourceGroup!.toLowerCase()}/`;
  return {
    status: 200,
    body: { value: [...ctx.state.nics].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v) },
  };
}

/** `DELETE .../networkInterfaces/{name}`: 202 and an operation; 204 if absent; 400 while a VM uses it. */
export function deleteNic(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('networkInterfaces', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const key = ArmState.key(resourceGroup, name);
  const nic = ctx.state.nics.get(key);
  if (nic === undefined) return { status: 204 };
  const vm = nic.properties.virtualMachine as { id: string } | undefined;
  if (vm !== undefined) {
    throw new ArmError(
      400,
      'NicInUse',
      `Network Interface ${nic.id} is used by existing resource ${vm.id}. In order to delete the network interface, it must be dissociated from the resource.`,
    );
  }
  const op = ctx.operations.start(() => {
    ctx.state.nics.delete(key);
    return { ok: true };
  });
  return { status: 202, headers: asyncHeaders(ctx, 'Microsoft.Network', op, req.query.get('api-version')!) };
}
