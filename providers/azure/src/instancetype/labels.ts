/** The `karpenter.azure.com/sku-*` labels of an instance type, as AKS Node Auto-Provisioning names them. */
export const AzureLabels = {
  SkuName: 'karpenter.azure.com/sku-name',
  SkuFamily: 'karpenter.azure.com/sku-family',
  SkuSeries: 'karpenter.azure.com/sku-series',
  SkuVersion: 'karpenter.azure.com/sku-version',
  SkuCpu: 'karpenter.azure.com/sku-cpu',
  SkuMemory: 'karpenter.azure.com/sku-memory',
  SkuGpuName: 'karpenter.azure.com/sku-gpu-name',
  SkuGpuManufacturer: 'karpenter.azure.com/sku-gpu-manufacturer',
  SkuGpuCount: 'karpenter.azure.com/sku-gpu-count',
  SkuNetworkingAccelerated: 'karpenter.azure.com/sku-networking-accelerated',
  SkuStoragePremiumCapable: 'karpenter.azure.com/sku-storage-premium-capable',
  SkuHyperVGeneration: 'karpenter.azure.com/sku-hyperv-generation',
  SkuEncryptionAtHostSupported: 'karpenter.azure.com/sku-encryptionathost-capable',
} as const;

/**
 * Every `karpenter.azure.com/sku-*` key: what the Azure provider and `--catalog azure` declare
 * well known, so a pod may select on them without its NodePool naming them. Every Azure
 * instance type defines each, `DoesNotExist` where it lacks it (a GPU label on a CPU size).
 */
export const AzureWellKnownLabels: ReadonlySet<string> = new Set(Object.values(AzureLabels));

/** Extended resources Azure GPU nodes advertise through their device plugins. */
export const AzureResources = { NvidiaGpu: 'nvidia.com/gpu', AmdGpu: 'amd.com/gpu' } as const;
