import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { decodeManifests } from '@nodewright/core/manifests';

/** The repository's root, from this file (conformance/install/src). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The controller's chart and the CRD chart, as directories. */
export const Charts = {
  controller: `${repoRoot}charts/nodewright`,
  crd: `${repoRoot}charts/nodewright-crd`,
} as const;
/** The providers that ship a values file beside the chart (`values-<provider>.yaml`). */
export const ChartProviders = ['kwok', 'aws', 'azure', 'gcp'] as const;
export type ChartProvider = (typeof ChartProviders)[number];
/** `helm template` checks kubeVersion against this: the release the conformance cluster runs. */
export const KubeVersion = '1.36.5';

/** What one command printed and how it ended. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end; a bash script's stderr (its progress) is shown as it comes. */
export function runCommand(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      // The first build takes minutes: show its progress lines as they come.
      if (command === 'bash') process.stderr.write(c);
    });
    child.once('error', (e) => reject(new Error(`cannot run ${command}: ${e.message}`)));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Builds helm from its Go module into the version-keyed cache unless it is there
 * (conformance/cluster/build/build-helm.sh) and resolves to the binary's path.
 */
export function ensureHelm(): Promise<string> {
  return ensureBuilt('conformance/cluster/build/build-helm.sh', 'helm');
}

/** kind, the same way (deploy/kind/build-kind.sh). */
export function ensureKind(): Promise<string> {
  return ensureBuilt('deploy/kind/build-kind.sh', 'kind');
}

/** Runs a build script that prints its bin directory last, and resolves to `binary` in it. */
async function ensureBuilt(script: string, binary: string): Promise<string> {
  const result = await runCommand('bash', [`${repoRoot}${script}`]);
  const binDir = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.code !== 0 || binDir === '') throw new Error(`${script} failed (exit ${result.code})`);
  return `${binDir}/${binary}`;
}

/**
 * `helm upgrade --install` of the controller chart as `release` in the namespace of the same
 * name, with the provider's values file and then `valuesFile` on top. Pure.
 */
export function controllerInstallArgs(
  release: string,
  provider: ChartProvider,
  valuesFile: string,
): string[] {
  return [
    'upgrade',
    '--install',
    release,
    Charts.controller,
    '--namespace',
    release,
    '-f',
    providerValues(provider),
    '-f',
    valuesFile,
  ];
}

/** Runs helm with a throwaway home, so no user's repositories or plugins take part. */
export function runHelm(helm: string, args: readonly string[], home: string): Promise<CommandResult> {
  return runCommand(helm, args, {
    ...process.env,
    HELM_CACHE_HOME: `${home}/cache`,
    HELM_CONFIG_HOME: `${home}/config`,
    HELM_DATA_HOME: `${home}/data`,
  });
}

/** A rendered object, as plain JSON. */
export type RenderedObject = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string } & Record<string, unknown>;
} & Record<string, unknown>;

/** Decodes `helm template` output; throws on a YAML error, naming it. */
export function decodeRendered(text: string): RenderedObject[] {
  const { manifests, errors } = decodeManifests('helm template', text);
  if (errors.length > 0) throw new Error(errors.map((e) => `${e.line ?? '?'}: ${e.message}`).join('\n'));
  return manifests.map((m) => m.object as RenderedObject);
}

/** `helm template` of a chart; throws with helm's stderr when it fails. */
export async function renderChart(
  helm: string,
  home: string,
  chart: string,
  options: { release?: string; namespace?: string; values?: readonly string[]; set?: readonly string[] } = {},
): Promise<RenderedObject[]> {
  const args = [
    'template',
    options.release ?? 'nodewright',
    chart,
    '--namespace',
    options.namespace ?? 'nodewright',
    '--kube-version',
    KubeVersion,
    ...(options.values ?? []).flatMap((v) => ['-f', v]),
    ...(options.set ?? []).flatMap((s) => ['--set', s]),
  ];
  const result = await runHelm(helm, args, home);
  if (result.code !== 0) throw new Error(`helm ${args.join(' ')} failed:\n${result.stderr}`);
  return decodeRendered(result.stdout);
}

/** The values file of a provider. */
export function providerValues(provider: ChartProvider): string {
  return `${Charts.controller}/values-${provider}.yaml`;
}
