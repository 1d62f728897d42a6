import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeClaimKind, nodePoolKind } from '@nodewright/core/apis';
import { CatalogProviders } from '@nodewright/core/catalog';
import { FakeClock } from '@nodewright/core/clock';
import { computeDisruption } from '@nodewright/core/disruption';
import { DaemonSets, Nodes, Pods, resourceTypeOf } from '@nodewright/core/kube';
import { explainLowerBound, podRequests, solve } from '@nodewright/core/scheduling';
import { kwokCatalogProvider, kwokNodeClassKind } from '@nodewright/kwok';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { type Command, UsageError } from '../command.js';
import { createCliServices } from '../compose.js';
import { nodeClassCatalogsOf } from '../live/default-catalogs.js';
import type { ClusterConnector } from '../live/live-cluster.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createAll, memoryCluster, memoryConnector } from '../testing/memory-live-cluster.js';
import { createDisruptCommand } from './disrupt.js';
import { createScheduleCommand } from './schedule.js';

const objects = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: a, resources: {requests: {cpu: 200m, memory: 128Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: default}
spec:
  containers: [{name: a, image: a, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-2, namespace: default}
spec:
  containers: [{name: a, image: a, resources: {requests: {cpu: "3", memory: 1Gi}}}]
`;

const catalogs = new CatalogProviders([kwokCatalogProvider]);
const live = (connect: ClusterConnector) => ({
  connect,
  nodeClassCatalogs: nodeClassCatalogsOf(InTreeProviders),
});

const scheduleOver = (connect: ClusterConnector) =>
  createScheduleCommand({
    catalogs,
    solve,
    report: { podRequests, lowerBound: explainLowerBound },
    live: live(connect),
  });

async function run(command: Command, argv: string[], cwd: string) {
  const io = fakeIo(cwd);
  const code = await command.run(parseCommandArgs(argv, command.options, command.positionals), {
    io,
    services: createCliServices(InTreeProviders),
  });
  return { code, out: io.out(), err: io.err() };
}

describe('schedule and disrupt --kubeconfig', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let connect: ReturnType<typeof memoryConnector>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    await writeFile(join(dir, 'objects.yaml'), objects);
    const cluster = memoryCluster();
    await createAll(cluster, objects, [
      resourceTypeOf(nodePoolKind),
      resourceTypeOf(nodeClaimKind),
      resourceTypeOf(kwokNodeClassKind),
      Nodes,
      Pods,
      DaemonSets,
    ]);
    connect = memoryConnector(cluster);
  });
  afterEach(() => remove());

  it('schedule decides over the cluster exactly as over a file of the same objects', async () => {
    const schedule = scheduleOver(connect);
    const fromFile = await run(schedule, ['-f', 'objects.yaml', '--catalog', 'kwok', '-o', 'json'], dir);
    const fromCluster = await run(schedule, ['--kubeconfig', 'kc', '--catalog', 'kwok', '-o', 'json'], dir);
    expect(fromFile.code).toBe(0);
    expect(fromCluster).toEqual({ code: 0, out: fromFile.out, err: '' });
    expect(JSON.parse(fromCluster.out).summary.scheduled).toBe(2);
    expect(connect.targets).toEqual([{ kubeconfig: 'kc' }]);
  });

  it("without --catalog, uses the NodePools' NodeClass provider catalog and says so", async () => {
    const schedule = scheduleOver(connect);
    const { code, out } = await run(schedule, ['--context', 'x', '-o', 'json'], dir);
    expect(code).toBe(0);
    expect(JSON.parse(out).notes).toContain(
      "no --catalog given: using the kwok catalog, of the NodePools' NodeClass provider",
    );
  });

  it('asks for -f or a cluster when given neither', async () => {
    const schedule = scheduleOver(connect);
    await expect(run(schedule, ['--catalog', 'kwok'], dir)).rejects.toThrow(
      new UsageError('-f FILE is required (or --kubeconfig FILE or --context NAME to read a cluster)'),
    );
  });

  it('disrupt reads the cluster too, and a file adds to it', async () => {
    const disrupt = createDisruptCommand({
      catalogs,
      clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')),
      computeDisruption,
      live: live(connect),
    });
    await writeFile(
      join(dir, 'more.yaml'),
      `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec: {maxUnavailable: 0, selector: {matchLabels: {app: web}}}
`,
    );
    const { code, err } = await run(disrupt, ['--kubeconfig', 'kc', '-f', 'more.yaml', '-o', 'json'], dir);
    expect(err).toBe('');
    expect(code).toBe(0);
    // The same object from the cluster and a file is ambiguous: an error, as for two files.
    const twice = await run(disrupt, ['--kubeconfig', 'kc', '-f', 'objects.yaml', '-o', 'json'], dir);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/is given twice/);
  });
});
