import { closestName } from '@nodewright/core/apis';
import type { Clock, Timers } from '@nodewright/core/clock';
import type { kubeConfigFromFile } from '@nodewright/core/kube';
import { systemErrorReason } from '@nodewright/core/manifests';
import { createLogger, Operator, type OperatorConfig, type ProviderPlugin } from '@nodewright/core/operator';
import { type Command, UsageError } from '../command.js';
import { writeLines } from '../io.js';
import { ControllerOptions, parseControllerFlags } from '../operator/flags.js';
import { ControllerNodeFlags } from '../operator/node-flags.js';
import { notInstalledHint } from '../providers/not-installed.js';
import { ProviderModuleHelp } from '../providers/provider-module-args.js';
import { CommandSummaries } from './summaries.js';

/** A KubeConfig, as core's loaders return it (the CLI does not depend on client-node itself). */
export type LoadedKubeConfig = Awaited<ReturnType<typeof kubeConfigFromFile>>;

/** What the command takes from the process; the real one is in operator/process-runtime.ts. */
export interface ControllerRuntime {
  readonly clock: Clock;
  readonly timers: Timers;
  /** `$KUBECONFIG`, read when the command runs. */
  kubeconfigEnv(): string | undefined;
  /** `<hostname>_<random 8 hex>`. */
  defaultIdentity(): string;
  /** The file's KubeConfig, or the in-cluster one when `path` is undefined. */
  loadKubeConfig(path: string | undefined): Promise<LoadedKubeConfig>;
  /** Calls `handler` on SIGTERM/SIGINT; returns the unsubscription. */
  onShutdownSignal(handler: (signal: string) => void): () => void;
}

/** What `nodewright controller` is built from. */
export interface ControllerCommandDependencies {
  /** `--provider` name -> plugin: every provider, or only those loaded (see `providerNames`). */
  readonly providers: Readonly<Record<string, ProviderPlugin>>;
  /**
   * Every name `--provider` accepts, when `providers` holds only the ones loaded (the controller
   * entry loads the chosen provider's package alone); default: the keys of `providers`.
   */
  readonly providerNames?: readonly string[];
  /** Built-in providers whose package is not installed: `--provider` of one says what to install. */
  readonly notInstalled?: readonly string[];
  /** The provider run without `--provider`: that of the one `--provider-module` given. */
  readonly defaultProvider?: string;
  readonly runtime: () => ControllerRuntime;
  /** More controllers to run (the metrics controllers); see OperatorConfig. */
  readonly extraControllers?: OperatorConfig['extraControllers'];
  /** Interface the servers bind; default all. Tests bind loopback. */
  readonly host?: string;
}

/** `nodewright controller`: runs the operator until SIGTERM/SIGINT. */
export function createControllerCommand(deps: ControllerCommandDependencies): Command {
  const names = [...(deps.providerNames ?? Object.keys(deps.providers))].sort();
  const settingsHelp = names
    .flatMap((name) => {
      const plugin = deps.providers[name];
      if (plugin === undefined) return [];
      const settings = Object.entries(plugin.settings);
      return settings.length === 0
        ? [`  ${name}: no settings`]
        : [`  ${name}:`, ...settings.map(([key, text]) => `    ${key.padEnd(26)} ${text}`)];
    })
    .join('\n');
  const usage = `nodewright controller --provider ${names.join('|') || 'NAME'} [options]`;
  return {
    name: 'controller',
    summary: CommandSummaries.controller,
    usage,
    help: `usage: ${usage}

Runs the nodewright operator against a cluster: installs or checks the CRDs, starts the
informers, and, on the replica holding the leader election Lease, the provisioning,
lifecycle, disruption and provider controllers. Logs are JSON lines on stdout. Runs until
SIGTERM or SIGINT, then stops taking work, waits for running reconciles (at most 30 s),
releases the Lease, closes the provider and exits 0.

Options:
  --provider NAME                   Cloud provider: ${names.join(', ') || '(none registered)'}.
                                    Optional with exactly one --provider-module.
${ProviderModuleHelp}
  --kubeconfig FILE                 Default: $KUBECONFIG, else ~/.kube/config, else the in-cluster config.
  --cluster-name NAME               Default "nodewright".
  --metrics-port N                  /metrics; default 8080 (0 = any free port).
  --health-port N                   /healthz and /readyz; default 8081 (0 = any free port).
  --leader-elect true|false         Default true.
  --leader-election-namespace NS    Default "kube-system".
  --leader-election-id NAME         The Lease's name; default "nodewright-leader-election".
  --identity ID                     Default "<hostname>_<random 8 hex>".
  --install-crds true|false         true (default): server-side apply the CRDs at start;
                                    false: check they exist.
  --set KEY=VALUE                   A provider setting; repeatable.
  --log-level debug|info|warn|error Default info.
  --batch-idle-duration DURATION    Default 1s.
  --batch-max-duration DURATION     Default 10s.
  -h, --help                        Show this help.

Provider settings:
${settingsHelp || '  (no providers registered)'}

Memory: the process re-executes itself (same pid) under the V8 flags ${ControllerNodeFlags.join(' ')},
each unless node's own arguments or NODE_OPTIONS set it.

Exit status: 0 stopped by a signal; 1 start-up failed or leadership was lost; 2 usage error.
`,
    options: ControllerOptions,
    async run({ values }, { io }) {
      const runtime = deps.runtime();
      const flags = parseControllerFlags(values, {
        kubeconfig: runtime.kubeconfigEnv(),
        ...(deps.defaultProvider === undefined ? {} : { defaultProvider: deps.defaultProvider }),
        defaultIdentity: () => runtime.defaultIdentity(),
      });
      const plugin = deps.providers[flags.provider];
      if (plugin === undefined) {
        const hint = deps.notInstalled?.includes(flags.provider) ? notInstalledHint(flags.provider) : '';
        throw new UsageError(
          `unknown provider '${flags.provider}' (known: ${names.join(', ') || 'none'})${hint}`,
        );
      }
      const unknown = Object.keys(flags.settings).filter((k) => !(k in plugin.settings));
      if (unknown.length > 0) {
        const keys = Object.keys(plugin.settings).sort();
        const named = unknown.map((k) => {
          const close = closestName(k, keys);
          return close === undefined ? k : `${k} (did you mean ${close}?)`;
        });
        throw new UsageError(
          `unknown ${plugin.name} setting ${named.join(', ')}; known: ${keys.join(', ') || 'none'}`,
        );
      }
      const logger = createLogger({
        level: flags.logLevel,
        destination: { write: (line: string) => void io.stdout.write(line) },
      });
      // Start-up failures go to stderr for the person at the terminal and, at ERROR, to the
      // JSON log for whoever reads the pod's logs. The operator logs its own failures.
      const fail = (message: string, alreadyLogged = false) => {
        if (!alreadyLogged) logger.error({ reason: message }, 'start-up failed');
        writeLines(io.stderr, [`nodewright controller: ${message}`]);
        return 1;
      };
      // Before any server starts or the cluster is contacted, so a missing region or a
      // malformed value fails at once rather than after the ports and the kubeconfig.
      try {
        plugin.checkSettings?.(flags.settings);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const prefix = `${plugin.name} provider: `;
        return fail(message.startsWith(prefix) ? message : `${prefix}${message}`);
      }
      let kubeConfig: LoadedKubeConfig;
      try {
        kubeConfig = await runtime.loadKubeConfig(flags.kubeconfig);
      } catch (err) {
        const reason = systemErrorReason(err);
        return fail(
          flags.kubeconfig === undefined
            ? `cannot load kubeconfig: ${reason}`
            : `cannot load kubeconfig ${flags.kubeconfig}: ${reason}`,
        );
      }
      const operator = new Operator({
        environment: { clock: runtime.clock, timers: runtime.timers, logger },
        plugin,
        clusterName: flags.clusterName,
        settings: flags.settings,
        kubeConfig,
        metricsPort: flags.metricsPort,
        healthPort: flags.healthPort,
        ...(deps.host === undefined ? {} : { host: deps.host }),
        crds: flags.installCrds ? 'install' : 'check',
        ...(flags.leaderElection === undefined
          ? {}
          : { leaderElection: { ...flags.leaderElection, identity: flags.identity } }),
        controllers: { provisioning: { batch: { idleMs: flags.batchIdleMs, maxMs: flags.batchMaxMs } } },
        ...(deps.extraControllers === undefined ? {} : { extraControllers: deps.extraControllers }),
      });
      let signalled: string | undefined;
      const unsubscribe = runtime.onShutdownSignal((signal) => {
        if (signalled !== undefined) return;
        signalled = signal;
        logger.info({ signal }, 'shutting down');
        void operator.stop();
      });
      // A start-up step may hang on an unanswering API server; a signal must still end the run.
      const startFailure = operator.start().then(
        () => undefined,
        (err: unknown) => ({ err }),
      );
      const first = await Promise.race([startFailure, operator.exited.then(() => undefined)]);
      if (first !== undefined && signalled === undefined) {
        unsubscribe();
        await operator.exited;
        return fail(first.err instanceof Error ? first.err.message : String(first.err), true);
      }
      const exit = await operator.exited;
      unsubscribe();
      if (exit.code !== 0) writeLines(io.stderr, [`nodewright controller: ${exit.reason}`]);
      return exit.code;
    },
  };
}
