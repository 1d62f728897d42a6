import { closestName } from '@nodewright/core/apis';
import type { Clock, Timers } from '@nodewright/core/clock';
import type { kubeConfigFromFile } from '@nodewright/core/kube';
import { systemErrorReason } from '@nodewright/core/manifests';
import {
  createLogger,
  Operator,
  type OperatorConfig,
  type ProviderPlugin,
  settingVariable,
} from '@nodewright/core/operator';
import { type Command, UsageError } from '../command.js';
import { writeLines } from '../io.js';
import { ControllerOptions, parseControllerFlags } from '../operator/flags.js';
import { ControllerNodeFlags } from '../operator/node-flags.js';
import { notInstalledHint } from '../providers/not-installed.js';
import { ProviderModuleHelp } from '../providers/provider-module-args.js';
import { packageVersion } from '../version.js';
import { CommandSummaries } from './summaries.js';

/** A KubeConfig, as core's loaders return it (the CLI does not depend on client-node itself). */
export type LoadedKubeConfig = Awaited<ReturnType<typeof kubeConfigFromFile>>;

/** What the command takes from the process; the real one is in operator/process-runtime.ts. */
export interface ControllerRuntime {
  readonly clock: Clock;
  readonly timers: Timers;
  /** `$KUBECONFIG`, read when the command runs. */
  kubeconfigEnv(): string | undefined;
  /** An environment variable standing for a flag not given (operator/flag-environment.ts). */
  variable?(name: string): string | undefined;
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
  --health-probe-port N             /healthz and /readyz; default 8081 (0 = any free port).
                                    --health-port is the same flag.
  --bind-address ADDRESS            The interface both listeners bind; default all.
  --leader-elect true|false         Default true.
  --disable-leader-election true|false
                                    Karpenter's spelling of --leader-elect=false.
  --leader-election-namespace NS    Default "kube-system".
  --leader-election-name NAME       The Lease's name; default "nodewright-leader-election".
                                    --leader-election-id is the same flag.
  --identity ID                     Default "<hostname>_<random 8 hex>".
  --install-crds true|false         true (default): server-side apply the CRDs at start;
                                    false: check they exist.
  --set KEY=VALUE                   A provider setting; repeatable. Each may come from
                                    NODEWRIGHT_SETTING_<KEY> instead (upper snake case:
                                    accessKeyId -> NODEWRIGHT_SETTING_ACCESS_KEY_ID); settings
                                    holding credentials only from there, never from --set.
  --log-level debug|info|warn|error Default info.
  --log-format json|text            json (default): one JSON object per line; text: readable lines.
  --batch-idle-duration DURATION    Default 1s.
  --batch-max-duration DURATION     Default 10s.
  --karpenter-lease NS/NAME         Karpenter's leader election Lease; default
                                    kube-system/karpenter-leader-election. Start-up fails while
                                    a live Karpenter holds it (both would act on the same
                                    karpenter.sh objects).
  --run-beside-karpenter true|false Skip that check; default false.
  --kube-request-timeout DURATION   Deadline of each API server request (lists and watches
                                    excepted); default 30s.
  --kube-list-timeout DURATION      Deadline of each page of a list; default 1m.
  --reconcile-timeout DURATION      How long one reconcile may run before it is abandoned
                                    and retried; default 5m.
  -h, --help                        Show this help.

Every flag can be given as an environment variable instead (the flag wins): Karpenter's
names where Karpenter has the setting (METRICS_PORT, HEALTH_PROBE_PORT, LEADER_ELECT,
DISABLE_LEADER_ELECTION, LEADER_ELECTION_NAME, LEADER_ELECTION_NAMESPACE, LOG_LEVEL,
LOG_FORMAT, CLUSTER_NAME, BATCH_IDLE_DURATION, BATCH_MAX_DURATION, KUBECONFIG), else
NODEWRIGHT_<FLAG> (NODEWRIGHT_PROVIDER, NODEWRIGHT_BIND_ADDRESS, NODEWRIGHT_IDENTITY,
NODEWRIGHT_INSTALL_CRDS, NODEWRIGHT_KARPENTER_LEASE, NODEWRIGHT_RUN_BESIDE_KARPENTER,
NODEWRIGHT_KUBE_REQUEST_TIMEOUT, NODEWRIGHT_KUBE_LIST_TIMEOUT, NODEWRIGHT_RECONCILE_TIMEOUT).
Credentials are never flags: each provider reads its cloud SDK's environment and files.

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
        ...(runtime.variable === undefined ? {} : { variable: (name: string) => runtime.variable?.(name) }),
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
      const secrets = Object.keys(flags.settings).filter((k) => plugin.secretSettings?.includes(k));
      if (secrets.length > 0) {
        const named = secrets.map((k) => `${settingVariable(k)} for ${k}`).join(', ');
        throw new UsageError(
          `${plugin.name} setting ${secrets.join(', ')} holds a credential: set it in the environment (${named}), never with --set, where any process on the node can read it`,
        );
      }
      const settings = { ...settingsFromEnvironment(plugin, runtime), ...flags.settings };
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
        format: flags.logFormat,
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
        plugin.checkSettings?.(settings);
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
        settings,
        kubeConfig,
        metricsPort: flags.metricsPort,
        healthPort: flags.healthPort,
        ...((flags.bindAddress ?? deps.host) === undefined ? {} : { host: flags.bindAddress ?? deps.host }),
        ...(flags.karpenterLease === undefined ? {} : { karpenterLease: flags.karpenterLease }),
        crds: flags.installCrds ? 'install' : 'check',
        ...(flags.leaderElection === undefined
          ? {}
          : { leaderElection: { ...flags.leaderElection, identity: flags.identity } }),
        controllers: { provisioning: { batch: { idleMs: flags.batchIdleMs, maxMs: flags.batchMaxMs } } },
        kubeRequestTimeouts: { requestMs: flags.kubeRequestTimeoutMs, listMs: flags.kubeListTimeoutMs },
        reconcileDeadlineMs: flags.reconcileTimeoutMs,
        build: { version: packageVersion(), nodeVersion: process.versions.node },
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

/** The provider's settings carried by `NODEWRIGHT_SETTING_*` variables; `--set` overrides them. */
function settingsFromEnvironment(plugin: ProviderPlugin, runtime: ControllerRuntime): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(plugin.settings)) {
    const value = runtime.variable?.(settingVariable(key));
    if (value !== undefined) out[key] = value;
  }
  return out;
}
