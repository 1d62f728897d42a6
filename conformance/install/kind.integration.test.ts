import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@nodewright/conformance/suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandResult, repoRoot, runCommand } from './src/helm.js';
import { parseTryKwokSteps, TRY_KWOK_STEPS } from './src/try-kwok-log.js';

// The install guide's "try it on kind with KWOK" as the test command runs it on a machine with
// no container registry: a kind cluster from a locally built node image, the controller image
// loaded into it, both charts installed with helm, and the controller running in the cluster as
// the chart's Deployment under its ServiceAccount. deploy/kind/try-kwok.sh does the install and
// its own checks (pods bound only to kwok nodes nodewright launched, the nodes gone after the
// scale-down); this test then fails the leader over by deleting its pod, as an operator would
// meet it, and has the next leader provision again.

const Cluster = `nw-test-${process.pid}`;
const Minute = 60_000;

let work: string;
let kubeconfig: string;
let kubectlPath: string;
let kindPath: string;
let install: CommandResult;

async function output(command: string, args: readonly string[]): Promise<string> {
  const result = await runCommand(command, args, { ...process.env, KUBECONFIG: kubeconfig });
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.code}): ${result.stderr.slice(-1500)}`,
    );
  }
  return result.stdout.trim();
}

const kubectl = (...args: string[]) => output(kubectlPath, args);

const leaseHolder = () =>
  kubectl(
    '-n',
    'nodewright',
    'get',
    'lease',
    'nodewright-leader-election',
    '-o',
    'jsonpath={.spec.holderIdentity}',
  );

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'nodewright-kind-'));
  kubeconfig = join(work, 'kubeconfig');
  // Builds what is missing (kind, the node image, the controller image, helm; each cached by
  // its inputs), starts the cluster and installs; progress goes to stderr as it comes.
  install = await runCommand('bash', [`${repoRoot}deploy/kind/try-kwok.sh`, Cluster], {
    ...process.env,
    TRY_KWOK_KUBECONFIG: kubeconfig,
  });
  kindPath = `${(await runCommand('bash', [`${repoRoot}deploy/kind/build-kind.sh`])).stdout.trim().split('\n').at(-1)}/kind`;
  const binDir = await runCommand('bash', [`${repoRoot}deploy/kind/build-node-image.sh`, '--bin-dir']);
  kubectlPath = `${binDir.stdout.trim().split('\n').at(-1)}/kubectl`;
}, 50 * Minute);

afterAll(async () => {
  if (kindPath !== undefined) await runCommand(kindPath, ['delete', 'cluster', '--name', Cluster]);
  if (work !== undefined) await rm(work, { recursive: true, force: true });
}, 2 * Minute);

describe('nodewright installed on kind with helm, the controller in the cluster', () => {
  it('installs from the image and both charts, provisions kwok nodes for pods and removes them when empty', () => {
    const steps = parseTryKwokSteps(install.stderr);
    if (install.code !== 0) {
      throw new Error(`try-kwok.sh failed (exit ${install.code}):\n${install.stderr.slice(-3000)}`);
    }
    expect(steps.map((s) => s.step)).toEqual(TRY_KWOK_STEPS);
    expect(install.stderr).toMatch(/\[try-kwok\] OK: cluster /);
    console.info(
      JSON.stringify({
        message: 'kind install measured',
        cluster: Cluster,
        seconds: Object.fromEntries(steps.map((s) => [s.step, s.seconds])),
      }),
    );
  });

  it('fails over when the leader pod is deleted, and the next leader provisions', async () => {
    expect(install.code).toBe(0);
    const first = await leaseHolder();
    expect(first).toMatch(/^nodewright-/);
    const started = Date.now();
    await kubectl('-n', 'nodewright', 'delete', 'pod', first, '--wait=false');
    // One replica: the Deployment starts a new pod, which takes the Lease once the old holder
    // released it on SIGTERM or its lease ran out.
    const next = await waitUntil(leaseHolder, (holder) => holder !== '' && holder !== first, {
      what: 'a new pod to hold the Lease',
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    const failoverSeconds = Math.round((Date.now() - started) / 100) / 10;
    const phase = await kubectl('-n', 'nodewright', 'get', 'pod', next, '-o', 'jsonpath={.status.phase}');
    expect(phase).toBe('Running');

    await kubectl('scale', 'deployment', 'inflate', '--replicas=2');
    const runningOn = async () =>
      (
        await kubectl(
          'get',
          'pods',
          '-l',
          'app=inflate',
          '--field-selector=status.phase=Running',
          '-o',
          'jsonpath={.items[*].spec.nodeName}',
        )
      )
        .split(/\s+/)
        .filter((n) => n !== '');
    const nodes = await waitUntil(runningOn, (names) => names.length === 2, {
      what: '2 inflate pods Running',
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    for (const node of nodes) {
      const pool = await kubectl(
        'get',
        'node',
        node,
        '-o',
        'jsonpath={.metadata.labels.karpenter\\.sh/nodepool}',
      );
      expect(pool, `node ${node}`).toBe('default');
    }
    const claims = (await kubectl('get', 'nodeclaims', '-o', 'name')).split('\n').filter((l) => l !== '');
    expect(claims.length).toBeGreaterThan(0);
    console.info(
      JSON.stringify({
        message: 'kind failover measured',
        'old-leader': first,
        'new-leader': next,
        'failover-seconds': failoverSeconds,
        nodeclaims: claims.length,
      }),
    );
  });
});
