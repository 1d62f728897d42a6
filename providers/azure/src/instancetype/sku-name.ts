/** The parts of a VM size name the `karpenter.azure.com/sku-*` labels carry. */
export interface SkuNameParts {
  /** `D` for Standard_D2s_v5, `NC` for Standard_NC24ads_A100_v4. */
  readonly family: string;
  /** The size without its vCPU count: `Ds_v5`, `Das_v5`, `NCads_A100_v4`, `Bms`. */
  readonly series: string;
  /** The `v<n>` suffix as a number string; `1` for sizes without one (the first version). */
  readonly version: string;
}

// Standard_<family letters><vCPUs><constrained vCPUs -n?><features>[_<accelerator>][_v<n>]
const SizeName = /^(?:Standard_|Basic_)?([A-Z]+)(\d+)(?:-\d+)?([a-z]*)((?:_[A-Za-z0-9]+)*)$/;

/**
 * Splits a VM size name as AKS's labels do; undefined for a name outside the scheme, which
 * then carries no family/series/version labels rather than made-up ones.
 */
export function parseSkuName(name: string): SkuNameParts | undefined {
  const m = SizeName.exec(name);
  if (m === null) return undefined;
  const [, family = '', , features = '', rest = ''] = m;
  const parts = rest.split('_').filter((p) => p !== '');
  const versionPart = parts.findLast((p) => /^v\d+$/.test(p));
  return {
    family,
    series: [`${family}${features}`, ...parts].join('_'),
    version: versionPart === undefined ? '1' : versionPart.slice(1),
  };
}

/** GPU models as the size names spell them (Resource SKUs give only a count). */
const GpuModels: readonly [RegExp, string][] = [
  [/_A100_/, 'A100'],
  [/_H100_/, 'H100'],
  [/_H200_/, 'H200'],
  [/_A10_/, 'A10'],
  [/_T4_/, 'T4'],
  [/_MI300X_/, 'MI300X'],
  [/^Standard_NC\d+r?s_v3$/, 'V100'],
  [/^Standard_ND\d+r?s_v2$/, 'V100'],
  [/^Standard_NV\d+s_v3$/, 'M60'],
];

/** The GPU model a size carries, read from its name; undefined when the name does not say. */
export function gpuModel(name: string): string | undefined {
  return GpuModels.find(([re]) => re.test(name))?.[1];
}

/** NVIDIA, except the AMD Instinct sizes. */
export function gpuManufacturer(model: string): 'nvidia' | 'amd' {
  return model.startsWith('MI') ? 'amd' : 'nvidia';
}
