import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodePoolKind } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  type KubeObject,
  kubeConfigFromFile,
  Namespaces,
  Nodes,
  Pods,
  type ResourceType,
  resourceType,
  resourceTypeOf,
  Secrets,
  ServiceAccounts,
} from '@nodewright/core/kube';
import { CustomResourceDefinitions, createLogger, ensureCrds } from '@nodewright/core/operator';
import { kwokNodeClassKind } from '@nodewright/kwok';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { main } from '../main.js';
import { fakeIo } from '../testing/fake-io.js';
import type { WhyNodeReport } from '../why/why-node.js';
import type { WhyPodReport } from '../why/why-pod.js';

/*
 * `why`, `schedule --kubeconfig` and the kubectl plugin against the real kube-apiserver, read as
 * a ServiceAccount bound to `view` plus read access to nodes and the karpenter.sh and KWOK kinds.
 * Every name carries this run's suffix; the NodePool is tainted so no other suite's pods (or
 * controllers) use it.
 */

const run = randomBytes(3).toString('hex');
const NS = `why-it-${run}`;
const POOL = `why-it-${run}`;
const NODE = `why-it-${run}`;
const TAINT = { key: 'nodewright.test/why', value: run, effect: 'NoSchedule' };
const root = fileURLToPath(new URL('../../../../', import.meta.url));

const ClusterRoles = resourceType({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  namespaced: false,
});
const ClusterRoleBindings = resourceType({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  namespaced: false,
});
const NodePools = resourceTypeOf(nodePoolKind);
const KwokNodeClasses = resourceTypeOf(kwokNodeClassKind);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function cli(argv: string[]) {
  const io = fakeIo(root);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe("nodewright why against a real API server, with a viewer's RBAC", () => {
  let admin: ClientNodeCluster;
  let dir: string;
  let kubeconfig: string;
  const cleanup: Array<() => Promise<unknown>> = [];

  const create = async <T extends KubeObject>(type: ResourceType, object: T) => {
    const made = await admin.create(type, object);
    const key = {
      ...(made.metadata.namespace === undefined ? {} : { namespace: made.metadata.namespace }),
      name: made.metadata.name!,
    };
    cleanup.push(() => admin.delete(type, key).catch(() => undefined));
    return made;
  };

  /** `why ...` as the viewer ServiceAccount. */
  const asViewer = (...args: string[]) =>
    cli(['why', ...args, '--kubeconfig', kubeconfig, '--context', 'viewer']);

  /** A token for a ServiceAccount of NS bound to `roles`, from a token Secret the controller fills. */
  const viewerToken = async (name: string, roles: readonly string[]) => {
    await create(ServiceAccounts, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace: NS },
    });
    for (const role of roles)
      await create(ClusterRoleBindings, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${NS}-${name}-${role}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'ServiceAccount', name, namespace: NS }],
      } as KubeObject);
    await create(Secrets, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `${name}-token`,
        namespace: NS,
        annotations: { 'kubernetes.io/service-account.name': name },
      },
      type: 'kubernetes.io/service-account-token',
    } as KubeObject);
    const secret = await eventually(`the token of ${name}`, async () => {
      const s = (await admin.get(Secrets, { namespace: NS, name: `${name}-token` })) as {
        data?: { token?: string };
      };
      return s.data?.token;
    });
    return Buffer.from(secret, 'base64').toString('utf8');
  };

  beforeAll(async () => {
    const adminPath = inject('nodewrightCluster').kubeconfigPath;
    admin = new ClientNodeCluster({
      kubeConfig: await kubeConfigFromFile(adminPath),
      fieldManager: 'why-it',
      logger: createLogger({ level: 'silent' }),
      clock: new SystemClock(),
      timers: new SystemTimers(),
    });
    // The CRDs as `nodewright crds` prints them, applied as a user would.
    const crds = await cli(['crds']);
    expect(crds.code).toBe(0);
    for (const doc of parseAllDocuments(crds.out)) {
      const crd = doc.toJS() as KubeObject | null;
      if (crd !== null)
        await admin.apply(CustomResourceDefinitions, crd, { fieldManager: 'why-it', force: true });
    }
    await ensureCrds(
      {
        cluster: admin,
        clock: new SystemClock(),
        timers: new SystemTimers(),
        logger: createLogger({ level: 'silent' }),
      },
      { kinds: [nodePoolKind, kwokNodeClassKind], mode: 'check' },
    );

    await create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create(KwokNodeClasses, {
      apiVersion: 'karpenter.kwok.sh/v1alpha1',
      kind: 'KWOKNodeClass',
      metadata: { name: POOL },
    });
    await create(NodePools, {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: POOL },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: POOL },
            requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['test-zone-a'] }],
            taints: [TAINT],
          },
        },
      },
    } as KubeObject);
    // A managed node kwok keeps Ready, with a pod that must not be disrupted.
    await create(Nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: NODE,
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
        labels: {
          'karpenter.sh/nodepool': POOL,
          'karpenter.sh/registered': 'true',
          'karpenter.sh/initialized': 'true',
          'karpenter.sh/capacity-type': 'on-demand',
          'node.kubernetes.io/instance-type': 'c-4x-amd64-linux',
          'topology.kubernetes.io/zone': 'test-zone-a',
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/hostname': NODE,
          type: 'kwok',
        },
      },
      spec: { providerID: `kwok://${NODE}`, taints: [TAINT] },
      status: {
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      },
    } as KubeObject);
    const tolerations = [{ key: TAINT.key, operator: 'Exists' }];
    const container = (cpu: string) => [
      { name: 'app', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } },
    ];
    await create(Pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'keep', namespace: NS, annotations: { 'karpenter.sh/do-not-disrupt': 'true' } },
      spec: { nodeName: NODE, tolerations, containers: container('100m') },
    } as KubeObject);
    // No NodePool offers test-zone-d: kube-scheduler marks it Unschedulable.
    await create(Pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'far', namespace: NS },
      spec: {
        nodeSelector: { 'topology.kubernetes.io/zone': 'test-zone-d' },
        tolerations,
        containers: container('1'),
      },
    } as KubeObject);
    await eventually('far to be marked Unschedulable', async () => {
      const pod = (await admin.get(Pods, { namespace: NS, name: 'far' })) as {
        status?: { conditions?: Array<{ type: string; reason?: string }> };
      };
      return (
        pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable') ||
        undefined
      );
    });

    await create(ClusterRoles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `${NS}-read` },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
        {
          apiGroups: ['karpenter.sh'],
          resources: ['nodepools', 'nodeclaims'],
          verbs: ['get', 'list', 'watch'],
        },
        { apiGroups: ['karpenter.kwok.sh'], resources: ['kwoknodeclasses'], verbs: ['get', 'list', 'watch'] },
      ],
    } as KubeObject);
    const viewer = await viewerToken('viewer', ['view', `${NS}-read`]);
    const viewOnly = await viewerToken('view-only', ['view']);

    // One kubeconfig, three contexts: the admin's (current), the viewer's and a bare `view`.
    const config = JSON.parse(await readFile(adminPath, 'utf8')) as {
      clusters: Array<{ name: string }>;
      users: unknown[];
      contexts: unknown[];
      'current-context': string;
    };
    const cluster = config.clusters[0]!.name;
    config.users.push(
      { name: 'viewer', user: { token: viewer } },
      { name: 'view-only', user: { token: viewOnly } },
    );
    config.contexts.push(
      { name: 'viewer', context: { cluster, user: 'viewer' } },
      { name: 'view-only', context: { cluster, user: 'view-only' } },
    );
    dir = await mkdtemp(join(tmpdir(), 'why-it-'));
    kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, JSON.stringify(config));
  });

  afterAll(async () => {
    for (const undo of cleanup.reverse()) await undo();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('why pod: the NodePool requirement that rules the pod out, and the cheapest type that would fit', async () => {
    const { code, out, err } = await asViewer('pod', `${NS}/far`, '-o', 'json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as WhyPodReport;
    expect(report.verdict).toBe('unschedulable');
    expect(report.nodePools).toContainEqual({
      nodePool: POOL,
      verdict: 'ruled-out',
      reason: 'requires topology.kubernetes.io/zone In [test-zone-d], NodePool allows In [test-zone-a]',
    });
    expect(report.cheapestFit).toMatchObject({ zone: 'test-zone-d' });
    // The catalog came from the KWOKNodeClass's provider; PersistentVolumes are beyond `view`.
    expect(report.notes).toContain(
      "no --catalog given: using the kwok catalog, of the NodePools' NodeClass provider",
    );
    expect(report.notes).toContain(
      'cannot list persistentvolumes (forbidden): volume topology of bound claims is not honoured',
    );
  });

  it("why pod: kube-scheduler's FailedScheduling Event is shown with it", async () => {
    const events = await eventually('a FailedScheduling event in why pod', async () => {
      const report = JSON.parse((await asViewer('pod', `${NS}/far`, '-o', 'json')).out) as WhyPodReport;
      return report.events?.some((e) => e.reason === 'FailedScheduling') === true ? report.events : undefined;
    });
    expect(events.find((e) => e.reason === 'FailedScheduling')).toMatchObject({ type: 'Warning' });
  });

  it('why node: the do-not-disrupt pod that blocks consolidation, with the NodePool budgets', async () => {
    const { code, out, err } = await asViewer('node', NODE, '-o', 'json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as WhyNodeReport;
    expect(report).toMatchObject({
      node: NODE,
      nodePool: POOL,
      managed: true,
      summary: `not disrupted: pod ${NS}/keep has karpenter.sh/do-not-disrupt`,
      disruption: { disruptable: false },
    });
    expect(report.budgets.map((b) => b.reason).sort()).toEqual(['Drifted', 'Empty', 'Underutilized']);
    const text = await asViewer('node', NODE);
    expect(text.out).toMatch(
      new RegExp(`^  blocked by: +pod ${NS}/keep has karpenter.sh/do-not-disrupt$`, 'm'),
    );
  });

  it('an unknown pod, a missing permission and an unknown context are one line each, exit 1', async () => {
    expect(await asViewer('pod', `${NS}/nope`)).toEqual({
      code: 1,
      out: '',
      err: `nodewright why: pod ${NS}/nope not found\n`,
    });
    const forbidden = await cli(['why', 'node', NODE, '--kubeconfig', kubeconfig, '--context', 'view-only']);
    expect(forbidden.code).toBe(1);
    expect(forbidden.err).toMatch(
      /^nodewright: forbidden: cannot list nodepools\.karpenter\.sh in context view-only: .*; grant list on nodepools\.karpenter\.sh \(see "RBAC" in docs\/cli\.md\)\n$/,
    );
    const context = await cli(['why', 'node', NODE, '--kubeconfig', kubeconfig, '--context', 'prod']);
    expect(context.code).toBe(1);
    expect(context.err).toMatch(
      /^nodewright: the kubeconfig .* has no context prod \(contexts: .*viewer, view-only\)\n$/,
    );
  });

  it('an unreachable server is one line, exit 1, no stack', async () => {
    const config = JSON.parse(await readFile(kubeconfig, 'utf8')) as {
      clusters: Array<{ cluster: { server: string } }>;
    };
    config.clusters[0]!.cluster.server = 'https://127.0.0.1:9';
    const down = join(dir, 'down');
    await writeFile(down, JSON.stringify(config));
    const result = await cli(['why', 'pod', `${NS}/far`, '--kubeconfig', down]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^nodewright: cannot reach the API server of context .*\n$/);
    expect(result.err.split('\n')).toHaveLength(2);
  });

  it('schedule --kubeconfig decides exactly as schedule -f of the same objects dumped by kubectl', async () => {
    const kinds =
      'pods,nodes,nodepools,nodeclaims,daemonsets,poddisruptionbudgets,persistentvolumeclaims,persistentvolumes,storageclasses';
    const compare = async () => {
      const dump = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'get', kinds, '-A', '-o', 'yaml'], {
        encoding: 'utf8',
      });
      expect(dump.stderr).toBe('');
      await writeFile(join(dir, 'cluster.yaml'), dump.stdout);
      const fromFile = await cli([
        'schedule',
        '-f',
        join(dir, 'cluster.yaml'),
        '--catalog',
        'kwok',
        '-o',
        'json',
      ]);
      const live = await cli(['schedule', '--kubeconfig', kubeconfig, '--catalog', 'kwok', '-o', 'json']);
      return { fromFile, live };
    };
    let { fromFile, live } = await compare();
    // Other suites share the cluster: a pod created between the two reads makes them differ once.
    if (fromFile.out !== live.out) ({ fromFile, live } = await compare());
    expect(fromFile.code).toBe(0);
    expect(live).toEqual({ code: 0, out: fromFile.out, err: '' });
    const report = JSON.parse(live.out) as { unschedulable: Array<{ pod: string; reason: string }> };
    expect(report.unschedulable.find((u) => u.pod === `${NS}/far`)?.reason).toMatch(
      `NodePool ${POOL}: requires topology.kubernetes.io/zone In [test-zone-d], NodePool allows In [test-zone-a]`,
    );
  });

  it('runs as a kubectl plugin: kubectl nodewright why pod ...', async () => {
    // What npm and pnpm do when they install the bin: an executable link on PATH.
    const shim = join(root, 'packages', 'cli', 'dist', 'kubectl-bin.js');
    await chmod(shim, 0o755);
    const bin = join(dir, 'bin');
    await import('node:fs/promises').then((fs) => fs.mkdir(bin));
    await symlink(shim, join(bin, 'kubectl-nodewright'));
    const result = spawnSync(
      'kubectl',
      ['nodewright', 'why', 'pod', `${NS}/far`, '--kubeconfig', kubeconfig, '--context', 'viewer'],
      {
        encoding: 'utf8',
        env: { ...process.env, PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter) },
      },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Pod ${NS}/far: unschedulable`, 'm'));
    expect(result.stdout).toMatch(
      new RegExp(
        `^${POOL} +ruled out +requires topology.kubernetes.io/zone In \\[test-zone-d\\], NodePool allows In \\[test-zone-a\\]$`,
        'm',
      ),
    );
  });
});
