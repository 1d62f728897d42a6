import type { AKSNodeClassInput } from './aksnodeclass.js';

/** A valid AKSNodeClass to start tests from; each call returns a fresh object. */
export function exampleAKSNodeClass(): AKSNodeClassInput {
  return {
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name: 'default' },
    spec: {
      vnetSubnetID:
        '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/MC_rg_cluster_eastus/providers/Microsoft.Network/virtualNetworks/aks-vnet/subnets/aks-subnet',
      imageFamily: 'Ubuntu2204',
    },
  };
}
