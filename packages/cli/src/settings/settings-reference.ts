import { type ProviderPlugin, settingVariable } from '@nodewright/core/operator';
import { ControllerFlagEnv } from '../operator/flag-environment.js';

/**
 * Karpenter's controller settings (its flags and environment variables) and what each is in
 * nodewright, for a Karpenter Deployment's `env:` and `args:` moving over.
 */
export const KarpenterSettings: readonly (readonly [karpenter: string, nodewright: string])[] = [
  ['`METRICS_PORT` / `--metrics-port`', 'the same'],
  ['`HEALTH_PROBE_PORT` / `--health-probe-port`', 'the same'],
  ['`LEADER_ELECTION_NAME` / `--leader-election-name`', 'the same; default `nodewright-leader-election`'],
  ['`LEADER_ELECTION_NAMESPACE` / `--leader-election-namespace`', 'the same; default `kube-system`'],
  ['`DISABLE_LEADER_ELECTION` / `--disable-leader-election`', 'the same'],
  ['`LOG_LEVEL` / `--log-level`', 'the same, plus `warn`'],
  ['`BATCH_IDLE_DURATION`, `BATCH_MAX_DURATION`', 'the same (1s, 10s)'],
  ['`CLUSTER_NAME` (AWS)', '`CLUSTER_NAME` / `--cluster-name`, for every provider'],
  ['`CLUSTER_ENDPOINT`, `CLUSTER_CA_BUNDLE` (AWS)', 'AWS settings `clusterEndpoint`, `caBundle`'],
  ['`INTERRUPTION_QUEUE` (AWS)', 'AWS setting `interruptionQueue`'],
  [
    '`FEATURE_GATES`',
    'none: node repair (for providers with repair policies) and spot-to-spot consolidation are always on, and reserved offerings are used where a catalog has them; NodeOverlay, StaticCapacity (NodePools with `replicas` are not provisioned for) and CapacityBuffer are not implemented',
  ],
  [
    '`PREFERENCE_POLICY`',
    'none: consolidation tries with preferences, then without (docs/cli.md, `disrupt`)',
  ],
  ['`MIN_VALUES_POLICY`', "none: the controller holds `minValues` strictly (Karpenter's default, `Strict`)"],
  [
    '`KUBE_CLIENT_QPS`, `KUBE_CLIENT_BURST`',
    'none: `--kube-request-timeout` and `--kube-list-timeout` bound each call instead',
  ],
  ['`LOG_OUTPUT_PATHS`, `LOG_ERROR_OUTPUT_PATHS`', 'none: JSON (or `--log-format text`) lines on stdout'],
  ['`MEMORY_LIMIT`, `CPU_REQUESTS`', "none: the process sizes V8's heap itself (docs/cli.md, `controller`)"],
  ['`ENABLE_PROFILING`, `DISABLE_CONTROLLER_WARMUP`', 'none'],
  ['`DISABLE_CLUSTER_STATE_OBSERVABILITY`', 'none: cluster state metrics and events are always on'],
  ['`KARPENTER_SERVICE` (webhooks)', 'none: nodewright runs no webhooks (CRD validation is CEL)'],
  ['`VM_MEMORY_OVERHEAD_PERCENT` (AWS)', "none: fixed at Karpenter's default, 7.5 %"],
  ['`ISOLATED_VPC`, `RESERVED_ENIS`, `EKS_CONTROL_PLANE` (AWS)', 'none'],
];

function tableCell(cell: string): string {
  return cell.replaceAll('|', '\\|');
}

/**
 * docs/settings.md: every `nodewright controller` flag with its variable, Karpenter's settings
 * and what they are here, and each provider's settings with their variables, from the code (the
 * flag table of flag-environment.ts and each plug-in's `settings` and `secretSettings`), so the
 * page cannot drift from what the controller accepts.
 */
export function settingsReferenceMarkdown(plugins: readonly ProviderPlugin[]): string {
  const lines: string[] = [
    '# Settings reference',
    '',
    '<!-- Generated from the code by packages/cli/src/settings/settings-reference.test.ts; run it with UPDATE_SETTINGS_DOC=1 after changing a flag or a provider setting. -->',
    '',
    'Everything `nodewright controller` reads at start. Each flag may be given as its environment',
    'variable instead (the flag wins); defaults and formats are in',
    '[cli.md](cli.md#flags-and-their-environment-variables). The Helm chart sets them from its',
    'values ([install.md](install.md)).',
    '',
    '## Controller flags',
    '',
    '| Flag | Variable |',
    '| --- | --- |',
  ];
  for (const [flag, variable] of Object.entries(ControllerFlagEnv))
    lines.push(`| \`--${flag}\` | \`${variable}\` |`);
  lines.push('| `--set KEY=VALUE` | `NODEWRIGHT_SETTING_<KEY>` (below) |');
  lines.push('', "## Karpenter's settings", '', '| Karpenter | nodewright |', '| --- | --- |');
  for (const [karpenter, here] of KarpenterSettings)
    lines.push(`| ${tableCell(karpenter)} | ${tableCell(here)} |`);
  lines.push(
    '',
    '## Provider settings',
    '',
    'Given as `--set KEY=VALUE` or as the variable. Settings that hold credentials are refused on',
    "the command line: only their variable (or the cloud SDK's own credential chain) sets them.",
  );
  for (const plugin of [...plugins].sort((a, b) => a.name.localeCompare(b.name))) {
    const secrets = new Set(plugin.secretSettings ?? []);
    lines.push('', `### ${plugin.name}`, '');
    const entries = Object.entries(plugin.settings);
    if (entries.length === 0) {
      lines.push('No settings.');
      continue;
    }
    lines.push('| Setting | Variable | Meaning |', '| --- | --- | --- |');
    for (const [key, meaning] of entries) {
      const note = secrets.has(key) ? ' Credential: variable only.' : '';
      lines.push(`| \`${key}\` | \`${settingVariable(key)}\` | ${tableCell(meaning)}${note} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
