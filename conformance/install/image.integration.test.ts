import { spawnSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AppLabel,
  applyKwokPool,
  controllerArgs,
  deploymentManifest,
  type E2EEnvironment,
  isRunningPod,
  NodeClaimType,
  type Observed,
  startE2EEnvironment,
  waitUntil,
} from '@nodewright/conformance/suite';
import { Deployments, Nodes, Pods } from '@nodewright/core/kube';
import type { StartedTestContainer } from 'testcontainers';
import { Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerOutput, ensureControllerImage, LockedDownContainer } from './src/controller-image.js';
import { repoRoot } from './src/helm.js';

// The Dockerfile, built by the test command itself FROM a locally made Node 24 base (no
// registry), and the controller run from that image through testcontainers as the chart's Pod
// runs it: read-only root, non-root, no capabilities. Against the real control plane with kwok,
// the containerised controller leads, answers its probes and provisions a node for a pod.

const Manager = { fieldManager: 'nodewright-image-e2e', force: true } as const;
/** Where the container reads its kubeconfig (mounted read-only). */
const KubeconfigMount = '/etc/nodewright/kubeconfig';

let image: string;
let env: E2EEnvironment | undefined;
let controller: StartedTestContainer | undefined;

interface ImageInspect {
  readonly Size: number;
  readonly Config: { readonly User: string; readonly Labels: Record<string, string> };
}

function inspectImage(name: string): ImageInspect {
  const result = spawnSync('docker', ['image', 'inspect', name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`docker image inspect ${name}: ${result.stderr}`);
  const [info] = JSON.parse(result.stdout) as ImageInspect[];
  if (info === undefined) throw new Error(`docker image inspect ${name}: no image`);
  return info;
}

beforeAll(async () => {
  // testcontainers' reaper runs from an image that would be pulled, and nothing can be here:
  // the tests remove their containers themselves.
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  image = await ensureControllerImage();
}, 45 * 60_000);

afterAll(async () => {
  await controller?.stop({ timeout: 20_000 });
  await env?.stop();
});

describe('the controller image, built from the Dockerfile', () => {
  it('carries its version and OCI labels, runs as 65532 and answers --version read-only with no capabilities', async () => {
    const info = inspectImage(image);
    const { version } = JSON.parse(await readFile(join(repoRoot, 'packages/cli/package.json'), 'utf8')) as {
      version: string;
    };
    expect(info.Config.User).toBe('65532:65532');
    expect(info.Config.Labels['org.opencontainers.image.version']).toBe(version);
    expect(info.Config.Labels['org.opencontainers.image.licenses']).toBe('Apache-2.0');
    const once = await new LockedDownContainer(image)
      .withCommand(['--version'])
      .withWaitStrategy(Wait.forOneShotStartup())
      .start();
    try {
      expect(await containerOutput(once)).toMatch(new RegExp(`^nodewright ${version} \\(node v24\\.`));
    } finally {
      await once.stop();
    }
    console.info(
      JSON.stringify({ message: 'image measured', image, 'size-mb': Math.round(info.Size / 1_000_000) }),
    );
  }, 120_000);

  it('carries every built-in provider, so the chart runs it on EKS, AKS and GKE as well as with KWOK', async () => {
    // The usage line names the providers that loaded; a provider package missing from the
    // image is left out of it (and `--provider aws` would be refused as not installed).
    const help = await new LockedDownContainer(image)
      .withCommand(['controller', '--help'])
      .withWaitStrategy(Wait.forOneShotStartup())
      .start();
    try {
      expect(await containerOutput(help)).toMatch(
        /usage: nodewright controller --provider aws\|azure\|gcp\|kwok /,
      );
    } finally {
      await help.stop();
    }
  }, 120_000);

  it('runs the controller in a container against a real control plane: it leads, answers its probes and provisions a KWOK node for a pod', async () => {
    env = await startE2EEnvironment({ name: 'image' });
    const cluster = env.cluster;
    // The container's user (65532) must read the kubeconfig, which is only mounted, read-only.
    const kubeconfig = join(env.workDir, 'image.kubeconfig');
    await writeFile(kubeconfig, await readFile(env.kubeconfigPath));
    await chmod(kubeconfig, 0o644);
    const lines: string[] = [];
    controller = await new LockedDownContainer(image)
      .withNetworkMode('host')
      .withBindMounts([{ source: kubeconfig, target: KubeconfigMount, mode: 'ro' }])
      .withCommand(
        controllerArgs({
          binPath: '',
          provider: 'kwok',
          kubeconfigPath: KubeconfigMount,
          identity: 'image',
          leaderElectionId: 'nodewright-image-e2e',
        }),
      )
      .withLogConsumer((stream) => {
        // Chunks do not end at line ends: keep the unfinished line for the next one.
        let partial = '';
        stream.on('data', (chunk: Buffer | string) => {
          const parts = (partial + chunk.toString()).split('\n');
          partial = parts.pop() ?? '';
          lines.push(...parts);
        });
      })
      .withWaitStrategy(Wait.forLogMessage(/"became leader"/))
      .withStartupTimeout(120_000)
      .start();
    const logged = (message: string) =>
      lines.flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { message?: string; port?: number };
          return entry.message === message ? [entry] : [];
        } catch {
          return [];
        }
      });
    const healthPort = logged('serving health')[0]?.port;
    expect(healthPort).toBeGreaterThan(0);
    // Ready once it has installed the CRDs and its caches synced (host network: the same port).
    await waitUntil(
      () =>
        fetch(`http://127.0.0.1:${healthPort}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      { what: 'the containerised controller ready', timeoutMs: 90_000, intervalMs: 500 },
    );
    await applyKwokPool(
      cluster,
      {
        name: 'image',
        nodeClassSpec: {},
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
      },
      Manager.fieldManager,
    );
    await cluster.create(
      Deployments,
      deploymentManifest({
        name: 'image',
        namespace: env.namespace,
        replicas: 1,
        nodePool: 'image',
        requests: { cpu: '500m', memory: '128Mi' },
      }),
    );
    const pods = await waitUntil(
      async () =>
        (
          await cluster.list<Observed>(Pods, {
            namespace: env?.namespace,
            labelSelector: `${AppLabel}=image`,
          })
        ).items,
      (p) => p.length === 1 && p.every(isRunningPod),
      {
        what: 'the pod Running on a node the containerised controller launched',
        timeoutMs: 180_000,
        intervalMs: 500,
      },
    );
    const claims = (
      await cluster.list<Observed>(NodeClaimType, { labelSelector: 'karpenter.sh/nodepool=image' })
    ).items;
    expect(claims).toHaveLength(1);
    const nodeName = String((pods[0]?.spec as { nodeName?: string } | undefined)?.nodeName);
    const node = await cluster.get<Observed>(Nodes, { name: nodeName });
    expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe('image');
    expect(logged('created nodeclaim')).toHaveLength(1);
    // A clean stop: SIGTERM, and the controller exits 0 within its grace.
    const stopped = await controller.stop({ timeout: 30_000, remove: false });
    controller = undefined;
    const exit = spawnSync('docker', ['inspect', '--format', '{{.State.ExitCode}}', stopped.getId()], {
      encoding: 'utf8',
    });
    spawnSync('docker', ['rm', '-f', stopped.getId()], { stdio: 'ignore' });
    expect(exit.stdout.trim()).toBe('0');
  }, 420_000);
});
