import { get as httpsGet } from 'node:https';
import type { ClusterConnection } from '@nodewright/conformance/cluster';

/**
 * kube-apiserver's `apiserver_request_total`, summed per verb (every client: the controller,
 * kube-scheduler, kube-controller-manager, kwok and the caller), read from its /metrics with the
 * connection's credentials. Undefined when the endpoint cannot be read (e.g. RBAC).
 */
export async function apiserverRequests(c: ClusterConnection): Promise<Map<string, number> | undefined> {
  const text = await new Promise<string | undefined>((resolve) => {
    const request = httpsGet(
      `${c.server}/metrics`,
      {
        ...(c.ca === undefined ? {} : { ca: c.ca }),
        ...(c.cert === undefined ? {} : { cert: c.cert }),
        ...(c.key === undefined ? {} : { key: c.key }),
        ...(c.bearerToken === undefined ? {} : { headers: { authorization: `Bearer ${c.bearerToken}` } }),
        rejectUnauthorized: c.insecureSkipTlsVerify !== true,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve(response.statusCode === 200 ? body : undefined));
      },
    );
    request.on('error', () => resolve(undefined));
  });
  return text === undefined ? undefined : requestsByVerb(text);
}

/** `apiserver_request_total` of a /metrics text, summed per verb. */
export function requestsByVerb(metricsText: string): Map<string, number> {
  const byVerb = new Map<string, number>();
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const verb = /verb="([^"]*)"/.exec(line)?.[1] ?? '?';
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) byVerb.set(verb, (byVerb.get(verb) ?? 0) + value);
  }
  return byVerb;
}

/** Requests between two readings, total and per verb, most first; `n/a` without both. */
export function requestsBetween(
  from: Map<string, number> | undefined,
  to: Map<string, number> | undefined,
): string {
  if (from === undefined || to === undefined) return 'n/a';
  const delta = [...to]
    .map(([verb, n]) => [verb, n - (from.get(verb) ?? 0)] as const)
    .filter(([, n]) => n > 0);
  delta.sort((a, b) => b[1] - a[1]);
  const total = delta.reduce((sum, [, n]) => sum + n, 0);
  return `${total} (${delta.map(([verb, n]) => `${verb} ${n}`).join(', ')})`;
}
