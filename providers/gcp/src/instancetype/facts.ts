/** What Compute Engine says about one machine type in the region, as the provider uses it. */
export interface GceMachineTypeFacts {
  readonly name: string;
  readonly vcpus: number;
  readonly memoryMiB: number;
  /** E2's micro/small/medium: two vCPUs time-shared, a fraction of a core billed. */
  readonly sharedCpu: boolean;
  /** `amd64` or `arm64`, as Kubernetes names them. */
  readonly architecture: 'amd64' | 'arm64';
  /** The attached accelerator, when the type has one (g2: nvidia-l4). */
  readonly gpu?: { readonly name: string; readonly count: number } | undefined;
  /** GiB of local SSD bundled with the type (the `-lssd` variants). */
  readonly localSsdGiB?: number | undefined;
  /** The region's zones that offer the type, sorted. */
  readonly zones: readonly string[];
}
