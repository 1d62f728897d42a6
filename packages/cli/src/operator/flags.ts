import type { ParseArgsOptionsConfig } from 'node:util';
import { type OptionValues, UsageError } from '../command.js';
import { flagDurationMs } from './duration.js';

/** The `nodewright controller` options (cli-flags.md), for node:util parseArgs. */
export const ControllerOptions = {
  provider: { type: 'string' },
  kubeconfig: { type: 'string' },
  'cluster-name': { type: 'string' },
  'metrics-port': { type: 'string' },
  'health-port': { type: 'string' },
  'leader-elect': { type: 'string' },
  'leader-election-namespace': { type: 'string' },
  'leader-election-id': { type: 'string' },
  identity: { type: 'string' },
  'install-crds': { type: 'string' },
  set: { type: 'string', multiple: true },
  'log-level': { type: 'string' },
  'batch-idle-duration': { type: 'string' },
  'batch-max-duration': { type: 'string' },
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
  /** Undefined when `--leader-elect=false`. */
  readonly leaderElection: { readonly namespace: string; readonly name: string } | undefined;
  readonly identity: string;
  readonly installCrds: boolean;
  readonly settings: Readonly<Record<string, string>>;
  readonly logLevel: LogLevel;
  readonly batchIdleMs: number;
  readonly batchMaxMs: number;
}

/** What the defaults are computed from; read by the caller, never here. */
export interface FlagEnvironment {
  /** `$KUBECONFIG`, if set. */
  readonly kubeconfig: string | undefined;
  /** The provider when `--provider` is not given (the one `--provider-module`'s); else required. */
  readonly defaultProvider?: string;
  /** Default identity: `<hostname>_<random 8 hex>`. */
  readonly defaultIdentity: () => string;
}

/**
 * Checks a parsed `nodewright controller` command line against cli-flags.md and fills in the
 * defaults. Throws a UsageError naming the flag and what it accepts. The provider name is
 * checked by the caller, which knows the registry.
 */
export function parseControllerFlags(values: OptionValues, env: FlagEnvironment): ControllerFlags {
  const provider = str(values.provider) ?? env.defaultProvider;
  if (provider === undefined || provider === '') throw new UsageError('--provider is required');
  const batchIdleMs = duration(values, 'batch-idle-duration', 1_000);
  const batchMaxMs = duration(values, 'batch-max-duration', 10_000);
  if (batchIdleMs <= 0 || batchMaxMs <= 0) throw new UsageError('batch durations must be greater than 0');
  if (batchIdleMs > batchMaxMs) {
    throw new UsageError('--batch-idle-duration must not be longer than --batch-max-duration');
  }
  const leaderElect = bool(values, 'leader-elect', true);
  const namespace = nonEmpty(values, 'leader-election-namespace', 'kube-system');
  const name = nonEmpty(values, 'leader-election-id', 'nodewright-leader-election');
  const identity = str(values.identity);
  if (identity === '') throw new UsageError('--identity must not be empty');
  const logLevel = str(values['log-level']) ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new UsageError(`--log-level must be debug, info, warn or error, not '${logLevel}'`);
  }
  return {
    provider,
    kubeconfig: str(values.kubeconfig) ?? (env.kubeconfig === '' ? undefined : env.kubeconfig),
    clusterName: nonEmpty(values, 'cluster-name', 'nodewright'),
    metricsPort: port(values, 'metrics-port', 8080),
    healthPort: port(values, 'health-port', 8081),
    leaderElection: leaderElect ? { namespace, name } : undefined,
    identity: identity ?? env.defaultIdentity(),
    installCrds: bool(values, 'install-crds', true),
    settings: settings(values.set),
    logLevel: logLevel as LogLevel,
    batchIdleMs,
    batchMaxMs,
  };
}

function str(value: OptionValues[string]): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
  return value === undefined ? undefined : String(value);
}

function nonEmpty(values: OptionValues, flag: string, fallback: string): string {
  const value = str(values[flag]);
  if (value === '') throw new UsageError(`--${flag} must not be empty`);
  return value ?? fallback;
}

function bool(values: OptionValues, flag: string, fallback: boolean): boolean {
  const value = str(values[flag]);
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${flag} must be true or false, not '${value}'`);
}

function port(values: OptionValues, flag: string, fallback: number): number {
  const value = str(values[flag]);
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n > 65_535) {
    throw new UsageError(`--${flag} must be a port number 0..65535 (0 = any free port), not '${value}'`);
  }
  return n;
}

function duration(values: OptionValues, flag: string, fallback: number): number {
  const value = str(values[flag]);
  if (value === undefined) return fallback;
  const ms = flagDurationMs(value);
  if (ms === undefined)
    throw new UsageError(`--${flag} must be a duration such as 500ms, 1s or 1m, not '${value}'`);
  return ms;
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
