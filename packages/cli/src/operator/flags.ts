import type { ParseArgsOptionsConfig } from 'node:util';
import type { LogFormat } from '@nodewright/core/operator';
import { type OptionValues, UsageError } from '../command.js';
import { flagDurationMs } from './duration.js';
import { ControllerFlagEnv, type ControllerFlagName } from './flag-environment.js';

/** The `nodewright controller` options (docs/cli.md), for node:util parseArgs. */
export const ControllerOptions = {
  provider: { type: 'string' },
  kubeconfig: { type: 'string' },
  'cluster-name': { type: 'string' },
  'metrics-port': { type: 'string' },
  'health-port': { type: 'string' },
  'health-probe-port': { type: 'string' },
  'bind-address': { type: 'string' },
  'leader-elect': { type: 'string' },
  'disable-leader-election': { type: 'string' },
  'leader-election-namespace': { type: 'string' },
  'leader-election-id': { type: 'string' },
  'leader-election-name': { type: 'string' },
  identity: { type: 'string' },
  'install-crds': { type: 'string' },
  set: { type: 'string', multiple: true },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'batch-idle-duration': { type: 'string' },
  'batch-max-duration': { type: 'string' },
  'run-beside-karpenter': { type: 'string' },
  'karpenter-lease': { type: 'string' },
  'kube-request-timeout': { type: 'string' },
  'kube-list-timeout': { type: 'string' },
  'reconcile-timeout': { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A controller command line, checked and with every default filled in. */
export interface ControllerFlags {
  readonly provider: string;
  /** The kubeconfig file: `--kubeconfig`, else `$KUBECONFIG`; undefined means in-cluster. */
  readonly kubeconfig: string | undefined;
  readonly clusterName: string;
  readonly metricsPort: number;
  readonly healthPort: number;
  /** The interface both listeners bind; undefined binds all. */
  readonly bindAddress: string | undefined;
  /** Undefined when `--leader-elect=false` or `--disable-leader-election=true`. */
  readonly leaderElection: { readonly namespace: string; readonly name: string } | undefined;
  readonly identity: string;
  readonly installCrds: boolean;
  readonly settings: Readonly<Record<string, string>>;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly batchIdleMs: number;
  readonly batchMaxMs: number;
  /** Deadline of each API server request but lists and watches (`--kube-request-timeout`). */
  readonly kubeRequestTimeoutMs: number;
  /** Deadline of each page of a list (`--kube-list-timeout`). */
  readonly kubeListTimeoutMs: number;
  /** How long one reconcile may run before it is abandoned and retried (`--reconcile-timeout`). */
  readonly reconcileTimeoutMs: number;
  /** Karpenter's Lease, checked at start; undefined with `--run-beside-karpenter=true`. */
  readonly karpenterLease: { readonly namespace: string; readonly name: string } | undefined;
}

/** What the defaults are computed from; read by the caller, never here. */
export interface FlagEnvironment {
  /** `$KUBECONFIG`, if set. */
  readonly kubeconfig: string | undefined;
  /**
   * The process environment: a flag not on the command line is read from its variable
   * (flag-environment.ts). Absent: flags only.
   */
  readonly variable?: (name: string) => string | undefined;
  /** The provider when `--provider` is not given (the one `--provider-module`'s); else required. */
  readonly defaultProvider?: string;
  /** Default identity: `<hostname>_<random 8 hex>`. */
  readonly defaultIdentity: () => string;
}

/** One setting's value and where it came from, so an error names what the user wrote. */
interface Given {
  readonly value: string | undefined;
  /** `--metrics-port` or `METRICS_PORT`. */
  readonly source: string;
}

/**
 * Checks a parsed `nodewright controller` command line against docs/cli.md and fills in the
 * defaults; a flag not given is read from its environment variable (flag-environment.ts).
 * Throws a UsageError naming the flag or variable and what it accepts. The provider name is
 * checked by the caller, which knows the registry.
 */
export function parseControllerFlags(values: OptionValues, env: FlagEnvironment): ControllerFlags {
  const given = (flag: Exclude<ControllerFlagName, 'kubeconfig'>): Given => {
    const value = str(values[flag]);
    if (value !== undefined) return { value, source: `--${flag}` };
    const name = ControllerFlagEnv[flag];
    return { value: env.variable?.(name), source: name };
  };
  const provider = given('provider').value ?? env.defaultProvider;
  if (provider === undefined || provider === '') throw new UsageError('--provider is required');
  const batchIdleMs = duration(given('batch-idle-duration'), 1_000);
  const batchMaxMs = duration(given('batch-max-duration'), 10_000);
  if (batchIdleMs <= 0 || batchMaxMs <= 0) throw new UsageError('batch durations must be greater than 0');
  if (batchIdleMs > batchMaxMs) {
    throw new UsageError('--batch-idle-duration must not be longer than --batch-max-duration');
  }
  const kubeRequestTimeoutMs = positiveDuration(given('kube-request-timeout'), 30_000);
  const kubeListTimeoutMs = positiveDuration(given('kube-list-timeout'), 60_000);
  const reconcileTimeoutMs = positiveDuration(given('reconcile-timeout'), 300_000);
  const leaderElect = bool(given('leader-elect'), true);
  const disabled = bool(given('disable-leader-election'), false);
  const leaderElectGiven = given('leader-elect').value !== undefined;
  if (leaderElectGiven && given('disable-leader-election').value !== undefined && leaderElect === disabled) {
    throw new UsageError('--leader-elect and --disable-leader-election disagree; give one of them');
  }
  const namespace = nonEmpty(given('leader-election-namespace'), 'kube-system');
  const name = nonEmpty(
    alias(given('leader-election-id'), given('leader-election-name')),
    'nodewright-leader-election',
  );
  const identity = given('identity');
  if (identity.value === '') throw new UsageError(`${identity.source} must not be empty`);
  const logLevel = oneOf(given('log-level'), ['debug', 'info', 'warn', 'error'], 'info');
  const logFormat = oneOf(given('log-format'), ['json', 'text'], 'json');
  const bindAddress = given('bind-address');
  if (bindAddress.value === '') throw new UsageError(`${bindAddress.source} must not be empty`);
  const beside = bool(given('run-beside-karpenter'), false);
  return {
    provider,
    kubeconfig: str(values.kubeconfig) ?? (env.kubeconfig === '' ? undefined : env.kubeconfig),
    clusterName: nonEmpty(given('cluster-name'), 'nodewright'),
    metricsPort: port(given('metrics-port'), 8080),
    healthPort: port(alias(given('health-port'), given('health-probe-port')), 8081),
    bindAddress: bindAddress.value,
    leaderElection: leaderElect && !disabled ? { namespace, name } : undefined,
    identity: identity.value ?? env.defaultIdentity(),
    installCrds: bool(given('install-crds'), true),
    settings: settings(values.set),
    logLevel: logLevel as LogLevel,
    logFormat: logFormat as LogFormat,
    batchIdleMs,
    batchMaxMs,
    kubeRequestTimeoutMs,
    kubeListTimeoutMs,
    reconcileTimeoutMs,
    karpenterLease: beside ? undefined : lease(given('karpenter-lease')),
  };
}

function str(value: OptionValues[string]): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
  return value === undefined ? undefined : String(value);
}

/** A flag and its alias: either may be given, both only with the same value. */
function alias(flag: Given, other: Given): Given {
  if (flag.value === undefined) return other;
  if (other.value !== undefined && other.value !== flag.value) {
    throw new UsageError(`${flag.source} and ${other.source} disagree ('${flag.value}' vs '${other.value}')`);
  }
  return flag;
}

function nonEmpty(given: Given, fallback: string): string {
  if (given.value === '') throw new UsageError(`${given.source} must not be empty`);
  return given.value ?? fallback;
}

function oneOf(given: Given, allowed: readonly string[], fallback: string): string {
  const value = given.value ?? fallback;
  if (!allowed.includes(value)) {
    const list = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
    throw new UsageError(`${given.source} must be ${list}, not '${value}'`);
  }
  return value;
}

function bool(given: Given, fallback: boolean): boolean {
  if (given.value === undefined) return fallback;
  if (given.value === 'true') return true;
  if (given.value === 'false') return false;
  throw new UsageError(`${given.source} must be true or false, not '${given.value}'`);
}

function port(given: Given, fallback: number): number {
  if (given.value === undefined) return fallback;
  const n = /^\d+$/.test(given.value) ? Number(given.value) : Number.NaN;
  if (!Number.isInteger(n) || n > 65_535) {
    throw new UsageError(
      `${given.source} must be a port number 0..65535 (0 = any free port), not '${given.value}'`,
    );
  }
  return n;
}

function duration(given: Given, fallback: number): number {
  if (given.value === undefined) return fallback;
  const ms = flagDurationMs(given.value);
  if (ms === undefined) {
    throw new UsageError(`${given.source} must be a duration such as 500ms, 1s or 1m, not '${given.value}'`);
  }
  return ms;
}

function positiveDuration(given: Given, fallback: number): number {
  const ms = duration(given, fallback);
  if (ms <= 0) throw new UsageError(`${given.source} must be longer than 0, not '${given.value}'`);
  return ms;
}

function lease(given: Given): { namespace: string; name: string } {
  const value = given.value ?? 'kube-system/karpenter-leader-election';
  const match = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/.exec(value);
  if (match === null) throw new UsageError(`${given.source} must be NAMESPACE/NAME, not '${value}'`);
  return { namespace: match[1] as string, name: match[3] as string };
}

function settings(value: OptionValues[string]): Record<string, string> {
  const entries = value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set must be key=value, not '${entry}'`);
    out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}
