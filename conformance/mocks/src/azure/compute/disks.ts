import { checkApiVersion } from '../arm/api-versions.js';
import { asyncHeaders } from '../arm/async-reply.js';
import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError, notFound } from '../arm/errors.js';
import { ArmState } from '../arm/state.js';

const TYPE = 'Microsoft.Compute/disks';

export function getDisk(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('disks', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const disk = ctx.state.disks.get(ArmState.key(resourceGroup, name));
  if (disk === undefined) throw notFound(TYPE, name, resourceGroup);
  return { status: 200, body: disk };
}

export function listDisks(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('disks', req.query);
  const prefix = `${req.params.resourceGroup!.toLowerCase()}/`;
  return {
    status: 200,
    body: { value: [...ctx.state.disks].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v) },
  };
}

/** `DELETE .../disks/{name}`: refused while attached (409), 204 if absent, else an operation. */
export function deleteDisk(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('disks', req.query);
  const { resourceGroup, name } = req.params as { resourceGroup: string; name: string };
  const key = ArmState.key(resourceGroup, name);
  const disk = ctx.state.disks.get(key);
  if (disk === undefined) return { status: 204 };
  if (disk.managedBy !== undefined) {
    throw new ArmError(
      409,
      'OperationNotAllowed',
      `Disk ${name} is attached to VM ${String(disk.managedBy)}.`,
    );
  }
  const op = ctx.operations.start(() => {
    ctx.state.disks.delete(key);
    return { ok: true };
  });
  return { status: 202, headers: asyncHeaders(ctx, 'Microsoft.Compute', op, req.query.get('api-version')!) };
}
