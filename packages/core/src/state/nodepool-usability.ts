import type { NodePool } from '../apis/v1/nodepool.js';

/** How strictly NodePools are admitted. */
export interface NodePoolUsabilityOptions {
  /**
   * A NodePool must carry `Ready=True` (the controller's rule: its NodeClass resolved and it
   * validated). Otherwise only an explicit `Ready=False` excludes it, as manifests often carry
   * no status. Default false.
   */
  readonly requireReady?: boolean;
}

/**
 * Why the provisioner would not launch nodes for this NodePool, or undefined when it would:
 * being deleted, static (`spec.replicas`), or not Ready (with the condition's reason; the
 * condition's message is the caller's to add where there is room for it).
 */
export function whyNodePoolUnusable(
  pool: NodePool,
  options: NodePoolUsabilityOptions = {},
): string | undefined {
  if (pool.metadata.deletionTimestamp !== undefined) return 'it is being deleted';
  if (pool.spec.replicas !== undefined)
    return 'it is static (spec.replicas), so it does not provision for pods';
  const ready = pool.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready === undefined) return options.requireReady === true ? 'it is not Ready yet' : undefined;
  if (ready.status === 'True') return undefined;
  if (ready.status === 'False' || options.requireReady === true) {
    return `it is not Ready${ready.reason ? ` (${ready.reason})` : ''}`;
  }
  return undefined;
}
