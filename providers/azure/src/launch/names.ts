/** The VM (and its NIC and OS disk) for a NodeClaim: `aks-<nodeclaim>`, as AKS NAP names them. */
export function vmName(nodeClaimName: string): string {
  return `aks-${nodeClaimName}`;
}

/** The NIC of a VM: the VM's name (one NIC per node). */
export function nicName(vm: string): string {
  return vm;
}

/** The OS disk of a VM, named so delete can find it without reading the VM. */
export function osDiskName(vm: string): string {
  return `${vm}-osdisk`;
}
