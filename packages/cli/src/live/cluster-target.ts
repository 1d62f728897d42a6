import type { ParseArgsOptionsConfig } from 'node:util';
import type { OptionValues } from '../command.js';

/** Which cluster a command reads: a kubeconfig file and a context in it, each optional. */
export interface ClusterTarget {
  /** `--kubeconfig FILE`; unset means `$KUBECONFIG`, then `~/.kube/config`. */
  readonly kubeconfig?: string;
  /** `--context NAME`; unset means the kubeconfig's current context. */
  readonly context?: string;
}

/** `--kubeconfig` and `--context`, shared by the commands that read a live cluster. */
export const ClusterOptions = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** Help lines describing ClusterOptions. */
export const ClusterOptionsHelp = `      --kubeconfig FILE
                       The cluster to read (list and get only: a viewer's RBAC is
                       enough, see docs/cli.md); default $KUBECONFIG, then
                       ~/.kube/config.
      --context NAME   The kubeconfig context to use; default its current context.`;

/**
 * The target a command line names, or undefined when it names none (neither `--kubeconfig` nor
 * `--context`): `schedule` and `disrupt` then read only their `-f` files.
 */
export function clusterTargetOf(values: OptionValues): ClusterTarget | undefined {
  const kubeconfig = typeof values.kubeconfig === 'string' ? values.kubeconfig : undefined;
  const context = typeof values.context === 'string' ? values.context : undefined;
  if (kubeconfig === undefined && context === undefined) return undefined;
  return {
    ...(kubeconfig === undefined ? {} : { kubeconfig }),
    ...(context === undefined ? {} : { context }),
  };
}

/** Facts about the process the kubeconfig is looked for in (read by the caller, so this stays pure). */
export interface KubeconfigLookup {
  /** `$KUBECONFIG`; unset or empty means none. */
  readonly kubeconfigEnv: string | undefined;
  /** `~/.kube/config`, spelt out for messages. */
  readonly homeConfigPath: string;
  readonly homeConfigExists: boolean;
}

/** Where the kubeconfig comes from: one file, or the `$KUBECONFIG` list kubectl merges. */
export type KubeconfigSource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'env-list'; readonly value: string };

/**
 * The kubeconfig kubectl would read: `--kubeconfig`, else `$KUBECONFIG` (a list of files
 * separated by `delimiter` is merged, as kubectl does), else `~/.kube/config`.
 * @throws Error saying where it looked when there is none.
 */
export function kubeconfigSource(
  target: ClusterTarget,
  lookup: KubeconfigLookup,
  delimiter: string,
): KubeconfigSource {
  if (target.kubeconfig !== undefined) return { kind: 'file', path: target.kubeconfig };
  const env = lookup.kubeconfigEnv ?? '';
  if (env !== '')
    return env.includes(delimiter) ? { kind: 'env-list', value: env } : { kind: 'file', path: env };
  if (lookup.homeConfigExists) return { kind: 'file', path: lookup.homeConfigPath };
  throw new Error(
    `no cluster to read: no --kubeconfig given, $KUBECONFIG is unset and ${lookup.homeConfigPath} does not exist`,
  );
}

/**
 * Whether a command line may read a cluster (`why`, or `--kubeconfig`/`--context` given), so
 * the entry point can prepare client-node before anything loads it.
 */
export function mayReadCluster(argv: readonly string[]): boolean {
  if (argv[0] === 'why') return true;
  return argv.some((a) => /^--(kubeconfig|context)(=|$)/.test(a));
}
