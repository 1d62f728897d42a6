import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CatalogProviders } from '@nodewright/core/catalog';
// Until the CLI depends on these (see the schedule command's wiring), the tests take them from source.
import { explainLowerBound, podRequests, solve } from '@nodewright/core/scheduling';
import { generateKwokCatalog, kwokCatalogProvider } from '@nodewright/kwok';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { UsageError } from '../command.js';
import { createCliServices } from '../compose.js';
import type { ScheduleReport } from '../snapshot/schedule-report.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createScheduleCommand } from './schedule.js';

const command = createScheduleCommand({
  catalogs: new CatalogProviders([kwokCatalogProvider]),
  solve,
  report: { podRequests, lowerBound: explainLowerBound },
});

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

/** Runs the command as main() does: parse, run, usage errors exit 2. */
async function run(argv: string[], cwd = dir) {
  const io = fakeIo(cwd);
  let code: number;
  try {
    code = await command.run(parseCommandArgs(argv, command.options), {
      io,
      services: createCliServices(InTreeProviders),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    code = 2;
  }
  return { code, out: io.out(), err: io.err() };
}

async function json(argv: string[], cwd = dir): Promise<ScheduleReport> {
  const { code, out, err } = await run([...argv, '-o', 'json'], cwd);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as ScheduleReport;
}

async function file(name: string, text: string): Promise<string> {
  await mkdir(join(dir, name, '..'), { recursive: true });
  await writeFile(join(dir, name), text);
  return name;
}

const pool = (name: string, extra = '') => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${name}}
spec:
${extra}  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
        - {key: kubernetes.io/os, operator: In, values: [linux]}
---
`;

const pod = (name: string, cpu: string, memory: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
${extra}  containers:
    - {name: app, image: app, resources: {requests: {cpu: ${cpu}, memory: ${memory}}}}
---
`;

const node = (name: string, cpu: string, memory: string) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    karpenter.sh/nodepool: default
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    topology.kubernetes.io/zone: test-zone-a
    node.kubernetes.io/instance-type: c-4x-amd64-linux
    karpenter.sh/capacity-type: on-demand
status:
  capacity: {cpu: "${cpu}", memory: ${memory}, pods: "110"}
  allocatable: {cpu: "${cpu}", memory: ${memory}, pods: "110"}
---
`;

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs, namespace: kube-system}
spec:
  selector: {matchLabels: {app: logs}}
  template:
    metadata: {labels: {app: logs}}
    spec:
      containers:
        - {name: logs, image: logs, resources: {requests: {cpu: 100m, memory: 200Mi}}}
---
`;

const kwokPrice = (name: string) => {
  const type = generateKwokCatalog().instanceTypes.find((t) => t.name === name)!;
  return Math.min(...type.offerings.map((o) => o.price));
};

describe('nodewright schedule', () => {
  it('places a pod on an existing node with room, buying nothing', async () => {
    await file('in.yaml', node('node-a', '4', '16Gi') + pool('default') + pod('api', '1', '1Gi'));
    const report = await json(['-f', 'in.yaml', '--catalog', 'kwok']);
    expect(report.existingNodes).toEqual([{ name: 'node-a', pods: ['default/api'] }]);
    expect(report.nodeClaims).toEqual([]);
    expect(report.summary).toMatchObject({ pods: 1, scheduled: 1, nodeClaims: 0, pricePerHour: 0 });
  });

  it('puts pods that do not fit onto new NodeClaims, cheapest types first, with NodeClaim requirements', async () => {
    await file(
      'in.yaml',
      node('node-a', '1', '1Gi') + pool('default') + pod('web-1', '2', '4Gi') + pod('web-2', '2', '4Gi'),
    );
    const report = await json(['-f', 'in.yaml', '--catalog', 'kwok']);
    expect(report.existingNodes).toEqual([]);
    expect(report.summary.scheduled).toBe(2);
    const pods = report.nodeClaims.flatMap((c) => c.pods).sort();
    expect(pods).toEqual(['default/web-1', 'default/web-2']);
    for (const claim of report.nodeClaims) {
      expect(claim.nodePool).toBe('default');
      const prices = claim.instanceTypes.map(kwokPrice);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      expect(claim.price).toBeCloseTo(prices[0]!, 9);
      const keys = claim.requirements.map((r) => r.key);
      expect(keys).toEqual(
        expect.arrayContaining([
          'karpenter.sh/nodepool',
          'karpenter.sh/capacity-type',
          'node.kubernetes.io/instance-type',
        ]),
      );
      const types = claim.requirements.find((r) => r.key === 'node.kubernetes.io/instance-type');
      expect(types?.values).toEqual([...claim.instanceTypes].sort());
      expect(claim.instanceTypes.every((t) => t.endsWith('-linux'))).toBe(true);
    }
    const total = report.nodeClaims.reduce((sum, c) => sum + c.price, 0);
    expect(report.summary.pricePerHour).toBeCloseTo(total, 6);
    expect(report.summary.lowerBoundPerHour).toBeGreaterThan(0);
    expect(report.summary.lowerBoundPerHour!).toBeLessThanOrEqual(report.summary.pricePerHour);
  });

  it('adds DaemonSet overhead to each new claim, and leaves the DaemonSet pod itself out', async () => {
    const dsPod = `apiVersion: v1
kind: Pod
metadata:
  name: logs-abc
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: logs}]
spec:
  containers:
    - {name: logs, image: logs, resources: {requests: {cpu: 100m, memory: 200Mi}}}
---
`;
    await file('in.yaml', pool('default') + daemonSet + dsPod + pod('web', '500m', '1Gi'));
    const report = await json(['-f', 'in.yaml', '--catalog', 'kwok']);
    expect(report.nodeClaims).toHaveLength(1);
    expect(report.nodeClaims[0]!.requests).toEqual({ cpu: '600m', memory: '1224Mi', pods: '2' });
    expect(report.ignored).toEqual([
      {
        pod: 'kube-system/logs-abc',
        reason: 'owned by DaemonSet kube-system/logs: its requests count as DaemonSet overhead on new nodes',
      },
    ]);
    expect(report.summary.pods).toBe(1);
  });

  it('reports unschedulable pods with a reason and still exits 0', async () => {
    await file(
      'in.yaml',
      pool('default') +
        pod('huge', '512', '1Gi') +
        pod('gpu', '1', '1Gi', '  nodeSelector: {example.com/gpu: "true"}\n'),
    );
    const report = await json(['-f', 'in.yaml', '--catalog', 'kwok']);
    expect(report.nodeClaims).toEqual([]);
    expect(report.unschedulable.map((u) => u.pod).sort()).toEqual(['default/gpu', 'default/huge']);
    const reasons = Object.fromEntries(report.unschedulable.map((u) => [u.pod, u.reason]));
    expect(reasons['default/huge']).toContain('cpu');
    expect(reasons['default/gpu']).toContain('example.com/gpu');
    expect(report.summary).toMatchObject({ pods: 2, scheduled: 0, nodeClaims: 0, lowerBoundPerHour: 0 });
  });

  it('reads --catalog FILE and uses catalogs among the -f objects', async () => {
    const catalog = (name: string, type: string, price: number) => `apiVersion: nodewright.dev/v1alpha1
kind: InstanceTypeCatalog
metadata: {name: ${name}}
instanceTypes:
  - name: ${type}
    labels: {kubernetes.io/os: linux, kubernetes.io/arch: amd64}
    capacity: {cpu: "8", memory: 32Gi, pods: "110"}
    offerings: [{zone: zone-a, capacityType: on-demand, price: ${price}}]
---
`;
    await file('types.yaml', catalog('mine', 'big-8x', 0.5));
    await file('in.yaml', pool('default') + pod('web', '1', '1Gi'));
    const fromFile = await json(['-f', 'in.yaml', '--catalog', 'types.yaml']);
    expect(fromFile.nodeClaims.map((c) => [c.instanceTypes, c.price])).toEqual([[['big-8x'], 0.5]]);

    await file('both.yaml', pool('default') + pod('web', '1', '1Gi') + catalog('inline', 'small-8x', 0.2));
    const both = await json(['-f', 'both.yaml', '--catalog', 'types.yaml']);
    expect(both.nodeClaims.map((c) => [c.instanceTypes, c.price])).toEqual([[['small-8x', 'big-8x'], 0.2]]);
  });

  it('schedules Exists on a catalog label only some types carry onto those types, DoesNotExist onto the rest', async () => {
    await file(
      'types.yaml',
      `apiVersion: nodewright.dev/v1alpha1
kind: InstanceTypeCatalog
metadata: {name: mixed}
instanceTypes:
  - name: plain-8x
    labels: {kubernetes.io/os: linux, kubernetes.io/arch: amd64}
    capacity: {cpu: "8", memory: 32Gi, pods: "110"}
    offerings: [{zone: zone-a, capacityType: on-demand, price: 0.2}]
  - name: gpu-8x
    labels: {kubernetes.io/os: linux, kubernetes.io/arch: amd64, example.com/gpu: nvidia}
    capacity: {cpu: "8", memory: 32Gi, pods: "110"}
    offerings: [{zone: zone-a, capacityType: on-demand, price: 0.9}]
`,
    );
    const affinity = (operator: string) => `  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: example.com/gpu, operator: ${operator}}]}]
`;
    await file(
      'in.yaml',
      pool('default') +
        pod('train', '1', '1Gi', affinity('Exists')) +
        pod('web', '1', '1Gi', affinity('DoesNotExist')),
    );
    const report = await json(['-f', 'in.yaml', '--catalog', 'types.yaml']);
    expect(report.unschedulable).toEqual([]);
    expect(report.nodeClaims.map((c) => [c.pods, c.instanceTypes])).toEqual(
      expect.arrayContaining([
        [['default/train'], ['gpu-8x']],
        [['default/web'], ['plain-8x']],
      ]),
    );
  });

  it('prints readable text by default', async () => {
    await file(
      'in.yaml',
      node('node-a', '4', '16Gi') +
        pool('default') +
        pod('api', '1', '1Gi') +
        pod('web', '8', '8Gi') +
        pod('huge', '512', '1Gi'),
    );
    const { code, out, err } = await run(['-f', 'in.yaml', '--catalog', 'kwok']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^NodeClaim 1 from NodePool default: 1 pod, \$\d+\.\d{4}\/h\n {2}instance types: /);
    expect(out).toContain('\n  pods:           default/web\n');
    expect(out).toContain('\nExisting node node-a: default/api\n');
    expect(out).toMatch(/\nUnschedulable \(1\):\n {2}default\/huge: .*cpu/);
    expect(out).toMatch(
      /\nSummary: 3 pending pods, 2 scheduled \(1 on 1 new NodeClaim, 1 on existing nodes\), 1 unschedulable\nPrice: \$\d+\.\d{4}\/h for the new NodeClaims, \d\.\d\dx the lower bound \$\d+\.\d{4}\/h \(set by .+\): no packing of these pods onto new nodes can cost less\n$/,
    );
  });

  it('is deterministic: the same input gives the same output', async () => {
    await file('in.yaml', pool('default') + ['a', 'b', 'c', 'd'].map((n) => pod(n, '3', '5Gi')).join(''));
    const first = await run(['-f', 'in.yaml', '--catalog', 'kwok', '-o', 'json']);
    const second = await run(['-f', 'in.yaml', '--catalog', 'kwok', '-o', 'json']);
    expect(second.out).toBe(first.out);
  });

  it('invalid input exits 1 in the validate format; a NodePool without a catalog too', async () => {
    await file('bad.yaml', pod('web', 'lots', '1Gi'));
    const bad = await run(['-f', 'bad.yaml', '--catalog', 'kwok']);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe('');
    expect(bad.err).toMatch(
      /^bad\.yaml: Pod\/web: spec\.containers\[0\]\.resources\.requests\.cpu: .+ \(line \d+\)\n$/,
    );

    await file('pool.yaml', pool('default') + pod('web', '1', '1Gi'));
    const none = await run(['-f', 'pool.yaml']);
    expect(none.code).toBe(1);
    expect(none.err).toBe(
      'pool.yaml: NodePool/default: no instance types: give a catalog with --catalog NAME or FILE, or an InstanceTypeCatalog with -f (catalogs: kwok) (line 1)\n',
    );

    const unknown = await run(['-f', 'pool.yaml', '--catalog', 'kwk']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('kwk: no catalog is named kwk (known: kwok) and no such file can be read\n');
  });

  it('usage errors exit 2', async () => {
    await file('in.yaml', pool('default'));
    expect((await run(['-f', 'in.yaml', '-o', 'yaml'])).code).toBe(2);
    expect((await run(['--catalog', 'kwok'])).code).toBe(2);
    expect(() => parseCommandArgs(['-f', 'in.yaml', '--bogus'], command.options)).toThrow(UsageError);
  });

  it('handles examples/schedule with the kwok catalog', async () => {
    const root = resolve(import.meta.dirname, '../../../..');
    const report = await json(['-f', 'examples/schedule', '--catalog', 'kwok'], root);
    const where = new Map<string, string>();
    for (const c of report.nodeClaims) for (const p of c.pods) where.set(p, `claim:${c.nodePool}`);
    for (const n of report.existingNodes) for (const p of n.pods) where.set(p, `node:${n.name}`);
    expect(where.get('default/api-1')).toBe('node:node-a');
    expect(where.get('jobs/worker-0')).toBe('claim:default');
    expect(where.get('payments/ledger-0')).toBe('claim:critical');
    for (const web of ['default/web-0', 'default/web-1', 'default/web-2'])
      expect(where.get(web)).toBe('claim:default');
    expect(report.unschedulable.map((u) => u.pod)).toEqual(['default/huge']);
    expect(report.ignored.map((i) => i.pod)).toEqual(['monitoring/node-exporter-x9y8z']);
    const worker = report.nodeClaims.find((c) => c.pods.includes('jobs/worker-0'))!;
    expect(worker.instanceTypes.every((t) => t.includes('-arm64-'))).toBe(true);
    const ledger = report.nodeClaims.find((c) => c.pods.includes('payments/ledger-0'))!;
    expect(ledger.requirements).toContainEqual({
      key: 'karpenter.sh/capacity-type',
      operator: 'In',
      values: ['on-demand'],
    });
    const zones = new Set(
      report.nodeClaims
        .filter((c) => c.pods.some((p) => p.startsWith('default/web-')))
        .map((c) => c.requirements.find((r) => r.key === 'topology.kubernetes.io/zone')?.values?.join(',')),
    );
    expect(zones.size).toBe(3);
    for (const c of report.nodeClaims) {
      expect(Number.parseInt(c.requests.cpu ?? '0', 10)).toBeGreaterThan(0);
      expect(c.requests.pods).toBe(String(c.pods.length + 1));
    }
    expect(report.summary).toMatchObject({ pods: 7, scheduled: 6 });
    expect(report.summary.lowerBoundPerHour!).toBeLessThanOrEqual(report.summary.pricePerHour);
  });
});

describe('schedule --expand-workloads', () => {
  const deployment = (replicas: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
${replicas}  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
`;
  const job = `apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      parallelism: 3
      completions: 2
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
`;

  it('without the flag skips workloads; with it plans the pods they would create', async () => {
    await file('chart.yaml', `${pool('default')}${deployment('  replicas: 3\n')}${job}`);
    const skipped = await run(['-f', 'chart.yaml', '--catalog', 'kwok', '-o', 'json']);
    expect(skipped.code).toBe(0);
    expect(skipped.err).toContain('Deployment/web: skipped');
    expect((JSON.parse(skipped.out) as ScheduleReport).summary.pods).toBe(0);

    const { code, out, err } = await run([
      '-f',
      'chart.yaml',
      '--catalog',
      'kwok',
      '--expand-workloads',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    expect(err).toContain('chart.yaml: Deployment/web: expanded into 3 pending pods (replicas 3)');
    expect(err).toContain(
      'chart.yaml: CronJob/report: expanded into 2 pending pods (parallelism 3, completions 2)',
    );
    const report = JSON.parse(out) as ScheduleReport;
    expect(report.summary).toMatchObject({ pods: 5, scheduled: 5 });
    const placed = report.nodeClaims.flatMap((c) => c.pods).sort();
    expect(placed).toEqual([
      'default/report-0',
      'default/report-1',
      'shop/web-0',
      'shop/web-1',
      'shop/web-2',
    ]);
  });

  it('counts pods of the input the selector matches, so kubectl get all output is not doubled', async () => {
    const running = `apiVersion: v1
kind: Pod
metadata: {name: web-abc12, namespace: shop, labels: {app: web}}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
`;
    await file('all.yaml', `${pool('default')}${running}${deployment('  replicas: 2\n')}`);
    const { code, out, err } = await run([
      '-f',
      'all.yaml',
      '--catalog',
      'kwok',
      '--expand-workloads',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    expect(err).toContain('Deployment/web: expanded into 1 pending pod (replicas 2, 1 already in the input)');
    expect((JSON.parse(out) as ScheduleReport).summary.pods).toBe(2);
  });

  it('a bad replicas count is an error naming the file, object and field', async () => {
    await file('bad.yaml', `${pool('default')}${deployment('  replicas: lots\n')}`);
    const { code, err } = await run(['-f', 'bad.yaml', '--catalog', 'kwok', '--expand-workloads']);
    expect(code).toBe(1);
    expect(err).toContain('bad.yaml: Deployment/web: spec.replicas: must be a whole number >= 0, not "lots"');
  });
});
