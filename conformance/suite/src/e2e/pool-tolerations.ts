/** A taint of a NodePool's template, as the example files write it. */
export interface TemplateTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

/**
 * The tolerations a workload for a NodePool needs to land on its nodes: one per taint of the
 * template (`spec.template.spec.taints`), matched by key and effect whatever the value. Startup
 * taints are not included (a node agent lifts them), nor Karpenter's own: such pods do not
 * tolerate `karpenter.sh/disrupted`, so a node being disrupted is drained of them, as it is of
 * most real workloads. Tolerating every NoSchedule taint instead would keep them on the node
 * until the pod garbage collector removes them, some 40 s after the Node is gone.
 */
export function poolTolerations(
  taints: readonly TemplateTaint[],
): { key: string; operator: 'Exists'; effect: string }[] {
  return taints.map((t) => ({ key: t.key, operator: 'Exists', effect: t.effect }));
}

/** The template taints of a NodePool object (none when it has none). */
export function templateTaints(nodePool: unknown): readonly TemplateTaint[] {
  const spec = (nodePool as { spec?: { template?: { spec?: { taints?: TemplateTaint[] } } } }).spec;
  return spec?.template?.spec?.taints ?? [];
}
