import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { deleteDisk, getDisk, listDisks } from '../compute/disks.js';
import { listGalleryImageVersions } from '../compute/gallery-image-versions.js';
import { listSkus } from '../compute/skus.js';
import { deleteVm, getVm, listVms, putVm } from '../compute/virtual-machines.js';
import { deleteNic, getNic, listNics, putNic } from '../network/nics.js';
import { retailPrices } from '../prices/retail-prices.js';
import { operationStatus } from './operation-status.js';

type Handler = (req: ArmRequest, ctx: ArmContext) => ArmReply;

/** A route: method, a path pattern whose `{name}` segments become params, and whether it needs a bearer token. */
interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
  readonly auth: boolean;
}

function route(method: string, template: string, handler: Handler, auth = true): Route {
  const names: string[] = [];
  const source = template.replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}$`, 'i'), names, handler, auth };
}

const RG = '/subscriptions/{subscription}/resourceGroups/{resourceGroup}/providers';

/** Every path the mock answers. */
export const ROUTES: readonly Route[] = [
  route('GET', '/subscriptions/{subscription}/providers/Microsoft.Compute/skus', listSkus),
  route(
    'GET',
    '/subscriptions/{subscription}/providers/Microsoft.Compute/locations/{location}/communityGalleries/{gallery}/images/{image}/versions',
    listGalleryImageVersions,
  ),
  route(
    'GET',
    '/subscriptions/{subscription}/providers/{provider}/locations/{location}/operations/{operation}',
    operationStatus,
  ),
  route('PUT', `${RG}/Microsoft.Compute/virtualMachines/{name}`, putVm),
  route('GET', `${RG}/Microsoft.Compute/virtualMachines/{name}`, getVm),
  route('DELETE', `${RG}/Microsoft.Compute/virtualMachines/{name}`, deleteVm),
  route('GET', `${RG}/Microsoft.Compute/virtualMachines`, listVms),
  route('GET', `${RG}/Microsoft.Compute/disks/{name}`, getDisk),
  route('DELETE', `${RG}/Microsoft.Compute/disks/{name}`, deleteDisk),
  route('GET', `${RG}/Microsoft.Compute/disks`, listDisks),
  route('PUT', `${RG}/Microsoft.Network/networkInterfaces/{name}`, putNic),
  route('GET', `${RG}/Microsoft.Network/networkInterfaces/{name}`, getNic),
  route('DELETE', `${RG}/Microsoft.Network/networkInterfaces/{name}`, deleteNic),
  route('GET', `${RG}/Microsoft.Network/networkInterfaces`, listNics),
  route('GET', '/api/retail/prices', retailPrices, false),
];

/** The route for a request and its path params, if any. */
export function match(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(path);
    if (m === null) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1]!);
    });
    return { route: r, params };
  }
  return undefined;
}
