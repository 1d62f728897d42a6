/**
 * Public facts of one Azure VM size, as its Resource SKU states them: the size name, the
 * SKU family, vCPUs, memory, architecture, GPUs and the capabilities the labels expose.
 */
export interface SkuFact {
  /** `Standard_D2s_v5`. */
  readonly name: string;
  /** The SKU's `family`, e.g. `standardDSv5Family` (quota is counted per family). */
  readonly family: string;
  readonly vCPUs: number;
  readonly memoryGB: number;
  readonly architecture: 'x64' | 'Arm64';
  readonly hyperVGenerations: 'V1,V2' | 'V2';
  readonly lowPriorityCapable: boolean;
  readonly premiumIO: boolean;
  readonly acceleratedNetworking: boolean;
  readonly encryptionAtHost: boolean;
  readonly maxNetworkInterfaces: number;
  readonly gpus?: { readonly name: string; readonly count: number };
}

type Caps = Omit<SkuFact, 'name' | 'family' | 'vCPUs' | 'memoryGB' | 'gpus'>;

const general: Caps = {
  architecture: 'x64',
  hyperVGenerations: 'V1,V2',
  lowPriorityCapable: true,
  premiumIO: true,
  acceleratedNetworking: true,
  encryptionAtHost: true,
  maxNetworkInterfaces: 2,
};

function series(
  family: string,
  caps: Caps,
  sizes: readonly [name: string, vCPUs: number, memoryGB: number, nics?: number][],
): SkuFact[] {
  return sizes.map(([name, vCPUs, memoryGB, nics]) => ({
    ...caps,
    name,
    family,
    vCPUs,
    memoryGB,
    maxNetworkInterfaces: nics ?? caps.maxNetworkInterfaces,
  }));
}

/**
 * Common sizes of the D, E, F, B, L and N series (Intel, AMD and Arm; v5 and v6) with their
 * published vCPUs, memory and capabilities. Shipped so `--catalog azure` works offline; the
 * provider reads the live list from Resource SKUs.
 */
export const SKU_FACTS: readonly SkuFact[] = [
  ...series('standardDSv5Family', general, [
    ['Standard_D2s_v5', 2, 8],
    ['Standard_D4s_v5', 4, 16],
    ['Standard_D8s_v5', 8, 32, 4],
    ['Standard_D16s_v5', 16, 64, 8],
    ['Standard_D32s_v5', 32, 128, 8],
  ]),
  ...series('standardDASv5Family', general, [
    ['Standard_D2as_v5', 2, 8],
    ['Standard_D4as_v5', 4, 16],
    ['Standard_D8as_v5', 8, 32, 4],
    ['Standard_D16as_v5', 16, 64, 8],
  ]),
  ...series('standardDPSv5Family', { ...general, architecture: 'Arm64', hyperVGenerations: 'V2' }, [
    ['Standard_D2ps_v5', 2, 8],
    ['Standard_D4ps_v5', 4, 16],
    ['Standard_D8ps_v5', 8, 32, 4],
  ]),
  ...series('standardDSv6Family', { ...general, hyperVGenerations: 'V2' }, [
    ['Standard_D2s_v6', 2, 8],
    ['Standard_D4s_v6', 4, 16],
    ['Standard_D8s_v6', 8, 32, 4],
  ]),
  ...series('standardESv5Family', general, [
    ['Standard_E2s_v5', 2, 16],
    ['Standard_E4s_v5', 4, 32],
    ['Standard_E8s_v5', 8, 64, 4],
    ['Standard_E16s_v5', 16, 128, 8],
  ]),
  ...series('standardEASv5Family', general, [
    ['Standard_E2as_v5', 2, 16],
    ['Standard_E4as_v5', 4, 32],
    ['Standard_E8as_v5', 8, 64, 4],
  ]),
  ...series('standardFSv2Family', general, [
    ['Standard_F2s_v2', 2, 4],
    ['Standard_F4s_v2', 4, 8],
    ['Standard_F8s_v2', 8, 16, 4],
    ['Standard_F16s_v2', 16, 32, 4],
  ]),
  ...series('standardBSFamily', { ...general, lowPriorityCapable: false, acceleratedNetworking: false }, [
    ['Standard_B2s', 2, 4, 3],
    ['Standard_B2ms', 2, 8, 3],
    ['Standard_B4ms', 4, 16, 4],
  ]),
  ...series('standardLSv3Family', { ...general, hyperVGenerations: 'V1,V2' }, [
    ['Standard_L8s_v3', 8, 64, 4],
    ['Standard_L16s_v3', 16, 128, 8],
  ]),
  {
    ...general,
    name: 'Standard_NC4as_T4_v3',
    family: 'Standard NCASv3_T4 Family',
    vCPUs: 4,
    memoryGB: 28,
    gpus: { name: 'T4', count: 1 },
  },
  {
    ...general,
    name: 'Standard_NC64as_T4_v3',
    family: 'Standard NCASv3_T4 Family',
    vCPUs: 64,
    memoryGB: 440,
    maxNetworkInterfaces: 8,
    gpus: { name: 'T4', count: 4 },
  },
  {
    ...general,
    name: 'Standard_NC24ads_A100_v4',
    family: 'StandardNCADSA100v4Family',
    hyperVGenerations: 'V2',
    vCPUs: 24,
    memoryGB: 220,
    gpus: { name: 'A100', count: 1 },
  },
];

/** The regions the shipped tables cover. */
export const STATIC_REGIONS = ['eastus', 'westus2'] as const;
