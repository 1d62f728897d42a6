/**
 * Each command's one-line summary, by name, in the order help lists them. Kept apart from the
 * commands so that `nodewright --help` prints the list without loading any of them.
 */
export const CommandSummaries = {
  validate: 'Check manifests against the schemas and rules the CRDs enforce',
  convert: 'Upgrade v1beta1 NodePools and EC2NodeClasses to v1',
  crds: 'Print or write the CustomResourceDefinitions',
  schedule: 'Show where pending pods would go: existing nodes or new NodeClaims, and why not',
  disrupt: 'Show what one disruption pass would do, and why each node is or is not disrupted',
  why: 'Explain one pod or node of a live cluster: why it is pending, or not consolidated or drifted',
  simulate: 'Run a scenario through the controllers on a simulated cluster, cloud and clock',
  controller: 'Run the operator (leader-elected controllers, health and metrics)',
  new: 'Write a new provider package that passes the conformance suites as generated',
} as const;

export type CommandName = keyof typeof CommandSummaries;
