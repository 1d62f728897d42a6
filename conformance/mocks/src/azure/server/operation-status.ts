import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError } from '../arm/errors.js';

/** `GET .../locations/{location}/operations/{id}`: the async operation's `{status, error?}`. */
export function operationStatus(req: ArmRequest, ctx: ArmContext): ArmReply {
  const id = req.params.operation!;
  const status = ctx.operations.poll(id);
  if (status === undefined)
    throw new ArmError(404, 'OperationNotFound', `The operation ${id} was not found.`);
  return {
    status: 200,
    body: { name: id, startTime: new Date().toISOString(), ...status },
  };
}
