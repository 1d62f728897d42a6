import type { NodeTaint } from '@nodewright/core/apis';

/** What a node's user data asks kubelet to register with. */
export interface KubeletRequests {
  readonly labels: Record<string, string>;
  readonly taints: NodeTaint[];
}

/**
 * Reads node labels and taints from user data in the forms the EKS AMIs take: kubelet flags
 * `--node-labels=k=v,...` / `--register-with-taints=k=v:Effect,...` (AL2023 NodeConfig, AL2
 * bootstrap.sh) and Bottlerocket TOML `[settings.kubernetes.node-labels]` / `node-taints`.
 * Anything else yields nothing: this is a best effort for the kubelet harness, not a parser.
 */
export function kubeletRequests(userDataBase64: string | undefined): KubeletRequests {
  const out: KubeletRequests = { labels: {}, taints: [] };
  if (!userDataBase64) return out;
  const text = Buffer.from(userDataBase64, 'base64').toString('utf8');
  for (const m of text.matchAll(/--node-labels=["']?([^\s"'\]]+)/g)) {
    for (const pair of (m[1] ?? '').split(',')) {
      const [k, v = ''] = pair.split('=');
      if (k) out.labels[k] = v;
    }
  }
  for (const m of text.matchAll(/--register-with-taints=["']?([^\s"'\]]+)/g)) {
    for (const t of (m[1] ?? '').split(',')) {
      const taint = parseTaint(t);
      if (taint) out.taints.push(taint);
    }
  }
  for (const [k, v] of tomlSection(text, 'settings.kubernetes.node-labels')) out.labels[k] = v;
  for (const [key, v] of tomlSection(text, 'settings.kubernetes.node-taints')) {
    for (const entry of v.replace(/^\[|\]$/g, '').split(',')) {
      const taint = parseTaint(`${key}=${entry.trim().replace(/^"|"$/g, '')}`);
      if (taint) out.taints.push(taint);
    }
  }
  return out;
}

function parseTaint(text: string): NodeTaint | undefined {
  const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(text);
  if (!m?.[1]) return undefined;
  return { key: m[1], ...(m[2] ? { value: m[2] } : {}), effect: m[3] as NodeTaint['effect'] };
}

function tomlSection(text: string, name: string): [string, string][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `[${name}]`);
  if (start < 0) return [];
  const out: [string, string][] = [];
  for (const line of lines.slice(start + 1)) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[') && !trimmed.includes('=')) break;
    const m = /^"?([^"=]+)"?\s*=\s*(.+)$/.exec(trimmed);
    if (m?.[1] && m[2]) out.push([m[1].trim(), m[2].trim().replace(/^"|"$/g, '')]);
  }
  return out;
}
