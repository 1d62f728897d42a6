import type { ProviderPlugin } from '@nodewright/core/plugin';
import type { LiveInputs } from '../snapshot/read-cluster.js';
import { nodeClassCatalogsOf } from './default-catalogs.js';

/**
 * How the commands of one command line read a live cluster: the real connector, loaded only
 * when a command asks for a cluster (client-node is large), and the default catalogs of the
 * loaded providers' NodeClass kinds.
 */
export function liveInputsOf(providers: readonly ProviderPlugin[]): LiveInputs {
  return {
    connect: async (target) => (await import('./client-node-connector.js')).clientNodeConnector(target),
    nodeClassCatalogs: nodeClassCatalogsOf(providers),
  };
}
