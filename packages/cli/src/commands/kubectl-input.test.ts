import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { main } from '../main.js';
import type { ScheduleReport } from '../snapshot/schedule-report.js';
import { fakeIo } from '../testing/fake-io.js';

// What users paste: `kubectl get pods,nodes,nodepools,nodeclaims -A -o yaml` (and `-o json`), as
// captured from a real API server (see examples/kubectl/README.md), and a `helm template`
// render piped into `schedule -f - --expand-workloads`. Each goes through main() with the real
// providers and catalogs, as the built CLI runs it.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const kubectlFiles = ['examples/kubectl/cluster.yaml', 'examples/kubectl/cluster.json'];
const karpenterNode = 'ip-192-168-141-27.ec2.internal';

interface ListItem {
  kind: string;
  metadata: { name: string; namespace?: string } & Record<string, unknown>;
  status?: { phase?: string };
}

/** The pods of the capture in a phase, as `namespace/name`: their names are the controllers'. */
async function podsIn(phase: string): Promise<string[]> {
  const list = JSON.parse(await readFile(join(root, kubectlFiles[1]!), 'utf8')) as { items: ListItem[] };
  return list.items
    .filter((i) => i.kind === 'Pod' && i.status?.phase === phase)
    .map((i) => `${i.metadata.namespace}/${i.metadata.name}`)
    .sort();
}

async function run(argv: string[], stdin = '') {
  const io = fakeIo(root, stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

interface DisruptJson {
  commands: unknown[];
  candidates: { node: string; nodePool: string; disruptable: boolean; note?: string; blockedBy?: string }[];
  ignored: { pod: string; reason: string }[];
}

describe('kubectl output as input', () => {
  it('the fixtures are one kind: List each, the YAML and the JSON holding the same objects', async () => {
    const yaml = parseAllDocuments(await readFile(join(root, kubectlFiles[0]!), 'utf8')).map((d) => d.toJS());
    const json = JSON.parse(await readFile(join(root, kubectlFiles[1]!), 'utf8')) as unknown;
    expect(yaml).toEqual([json]);
    const list = json as { kind: string; items: ListItem[] };
    expect(list.kind).toBe('List');
    const kinds = new Set(list.items.map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['Node', 'NodeClaim', 'NodePool', 'Pod']);
    // Server-populated metadata on every object, as the API returns it.
    for (const item of list.items) {
      expect(Object.keys(item.metadata)).toEqual(
        expect.arrayContaining(['creationTimestamp', 'managedFields', 'resourceVersion', 'uid']),
      );
    }
  });

  it.each(kubectlFiles)(
    'schedule -f %s places every pending pod and ignores the finished one',
    async (file) => {
      const { code, out, err } = await run(['schedule', '-f', file, '--catalog', 'aws', '-o', 'json']);
      expect(err).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(out) as ScheduleReport;
      const pendingPods = await podsIn('Pending');
      // Three web replicas and the report job, which kube-scheduler could not place.
      expect(pendingPods).toHaveLength(4);
      expect(report.unschedulable).toEqual([]);
      expect(report.summary.pods).toBe(pendingPods.length);
      expect(report.summary.scheduled).toBe(pendingPods.length);
      // The Karpenter node is full (three 1-CPU web pods and its DaemonSet pods on 3920m), and
      // the web pods select NodePool default, so nothing fits on an existing node.
      expect(report.existingNodes).toEqual([]);
      expect(report.nodeClaims.flatMap((c) => c.pods).sort()).toEqual(pendingPods);
      for (const claim of report.nodeClaims) expect(claim.nodePool).toBe('default');
      // kubectl get pods,nodes,... brings the DaemonSets' pods but not the DaemonSets.
      expect(report.notes).toEqual([
        'pods of DaemonSets kube-system/aws-node, kube-system/kube-proxy are in the input but not the DaemonSets: their requests on new nodes are not counted (add daemonsets to the kubectl get)',
      ]);
      const finished = await podsIn('Succeeded');
      expect(finished).toHaveLength(1);
      expect(report.ignored).toEqual([
        { pod: finished[0], reason: 'phase Succeeded: a finished pod holds no resources' },
      ]);
    },
  );

  it('the YAML and the JSON give the same decision', async () => {
    const [yaml, json] = await Promise.all(
      kubectlFiles.map((f) => run(['schedule', '-f', f, '--catalog', 'aws', '-o', 'json'])),
    );
    expect(yaml?.out).toBe(json?.out);
  });

  it.each(kubectlFiles)(
    'disrupt -f %s evaluates the Karpenter node and leaves the node group alone',
    async (file) => {
      const { code, out, err } = await run([
        'disrupt',
        '-f',
        file,
        '--catalog',
        'aws',
        '--now',
        '2026-12-04T09:00:00Z',
        '-o',
        'json',
      ]);
      expect(err).toBe('');
      expect(code).toBe(0);
      const result = JSON.parse(out) as DisruptJson;
      // Only the node of NodePool default is Karpenter's; the managed node group's are not.
      expect(result.candidates.map((c) => c.node)).toEqual([karpenterNode]);
      const candidate = result.candidates[0]!;
      expect(candidate.nodePool).toBe('default');
      // Consolidation is held back by the pending pods that would share the replacement.
      expect(result.commands).toEqual([]);
      expect(candidate.note).toBe(
        'not consolidated: no instance type that fits its pods and the 4 other pods waiting for capacity is cheaper than $0.192/h',
      );
      expect(result.ignored.map((i) => i.pod)).toEqual(await podsIn('Succeeded'));
    },
  );

  it('kubectl get all output plans the same, with or without --expand-workloads', async () => {
    const base = ['schedule', '-f', 'examples/kubectl/get-all.yaml', '--catalog', 'aws', '-o', 'json'];
    const plain = await run(base);
    const expanded = await run([...base, '--expand-workloads']);
    expect(plain.code).toBe(0);
    expect(expanded.code).toBe(0);
    // Deployments, ReplicaSets and Jobs are skipped without the flag, and with it expand
    // into no pods beyond those already listed: the finished Job into none at all.
    expect(plain.err).toMatch(/^examples\/kubectl\/get-all\.yaml: Deployment\/shop-web: skipped: /m);
    expect(expanded.err).toContain(
      'examples/kubectl/get-all.yaml: Deployment/shop-web: expanded into 0 pending pods (replicas 6, 6 already in the input)',
    );
    expect(expanded.err).toContain(
      'examples/kubectl/get-all.yaml: Job/shop-db-migrate-2: expanded into 0 pending pods (the Job is Complete)',
    );
    const placed = (out: string) => {
      const report = JSON.parse(out) as ScheduleReport;
      return { summary: report.summary, pods: report.nodeClaims.flatMap((c) => c.pods).sort() };
    };
    expect(placed(expanded.out)).toEqual(placed(plain.out));
    expect(placed(plain.out).summary).toMatchObject({ pods: 4, scheduled: 4, nodeClaims: 1 });
    // `get all` includes the DaemonSets, so their overhead counts and no note is needed.
    expect((JSON.parse(plain.out) as ScheduleReport).notes).toEqual([]);
  });

  it('reads a kubectl List from standard input as from a file', async () => {
    const text = await readFile(join(root, 'examples/kubectl/cluster.yaml'), 'utf8');
    const piped = await run(['schedule', '-f', '-', '--catalog', 'aws', '-o', 'json'], text);
    const file = await run([
      'schedule',
      '-f',
      'examples/kubectl/cluster.yaml',
      '--catalog',
      'aws',
      '-o',
      'json',
    ]);
    expect(piped.code).toBe(0);
    expect(piped.out).toBe(file.out);
  });
});

describe('a helm template render through standard input', () => {
  it('schedule -f - --expand-workloads plans the workloads, skipping Services, ConfigMaps and hooks', async () => {
    const chart = await readFile(join(root, 'examples/workloads/helm-template.yaml'), 'utf8');
    const { code, out, err } = await run(
      [
        'schedule',
        '-f',
        '-',
        '-f',
        'examples/nodepools/aws/general-purpose.yaml',
        '--catalog',
        'aws',
        '--expand-workloads',
        '-o',
        'json',
      ],
      chart,
    );
    expect(code).toBe(0);
    const lines = err.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '<stdin>: Deployment/shop: expanded into 4 pending pods (replicas 4)',
        '<stdin>: CronJob/shop-daily-report: expanded into 1 pending pod (parallelism 1)',
        '<stdin>: Pod/shop-test-connection: skipped: a Helm hook (helm.sh/hook: test): runs only on helm test (line 196)',
      ]),
    );
    for (const kind of [
      'ServiceAccount/shop',
      'ConfigMap/shop-config',
      'Service/shop',
      'HorizontalPodAutoscaler/shop',
    ])
      expect(lines.filter((l) => l.startsWith(`<stdin>: ${kind}: skipped: `))).toHaveLength(1);
    // The comments and `---` of the render are no documents of their own.
    expect(lines).toHaveLength(7);
    const report = JSON.parse(out) as ScheduleReport;
    expect(report.unschedulable).toEqual([]);
    expect(report.summary.pods).toBe(5);
    expect(report.summary.scheduled).toBe(5);
    expect(report.nodeClaims.flatMap((c) => c.pods).sort()).toEqual([
      'default/shop-0',
      'default/shop-1',
      'default/shop-2',
      'default/shop-3',
      'default/shop-daily-report-0',
    ]);
  });
});
