import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CatalogProviders } from '@nodewright/core/catalog';
import { FakeClock } from '@nodewright/core/clock';
import { computeDisruption } from '@nodewright/core/disruption';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { createCliServices } from '../compose.js';
import { main } from '../main.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createDisruptCommand, type DisruptReport, renderDisruptText } from './disrupt.js';

const example = fileURLToPath(new URL('../../../../examples/disrupt', import.meta.url));

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

async function run(argv: string[]) {
  const io = fakeIo(dir);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

async function json(argv: string[]): Promise<DisruptReport> {
  const { code, out, err } = await run([...argv, '-o', 'json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as DisruptReport;
}

const Monday2pm = '2024-06-03T14:00:00Z';

/** `disrupt -f examples/disrupt -o json` built over this clock and pass, without --now. */
async function exampleReport(
  clockNow: number,
  pass: Parameters<typeof createDisruptCommand>[0]['computeDisruption'],
): Promise<DisruptReport> {
  const command = createDisruptCommand({
    catalogs: new CatalogProviders([]),
    clock: new FakeClock(clockNow),
    computeDisruption: pass,
  });
  const io = fakeIo(dir);
  const code = await command.run(parseCommandArgs(['-f', example, '-o', 'json'], command.options), {
    io,
    services: createCliServices(InTreeProviders),
  });
  expect(code).toBe(0);
  return JSON.parse(io.out()) as DisruptReport;
}

describe('nodewright disrupt on examples/disrupt', () => {
  it('consolidates the two underutilized nodes and explains every other node', async () => {
    const report = await json(['disrupt', '-f', example, '--now', Monday2pm]);
    expect(report.commands).toEqual([
      {
        method: 'multi-node-consolidation',
        reason: 'Underutilized',
        candidates: ['general-a', 'general-b'],
        replacements: [],
        savingsPerHour: 0.384,
        moves: [
          { pod: 'default/api-5c4b8-r2d7w', node: 'general-c' },
          { pod: 'default/web-7d9f6-m8q1z', node: 'general-c' },
          { pod: 'default/web-7d9f6-t5v9n', node: 'general-c' },
          { pod: 'default/web-7d9f6-x2k4p', node: 'general-c' },
        ],
      },
    ]);
    expect(
      report.candidates.map(({ node, nodePool, disruptable, blockedBy }) => ({
        node,
        nodePool,
        disruptable,
        blockedBy,
      })),
    ).toEqual([
      {
        node: 'batch-1',
        nodePool: 'batch',
        disruptable: false,
        blockedBy:
          'NodePool batch has consolidationPolicy WhenEmpty and the node is not empty (1 pod would move)',
      },
      { node: 'general-a', nodePool: 'default', disruptable: true, blockedBy: undefined },
      { node: 'general-b', nodePool: 'default', disruptable: true, blockedBy: undefined },
      {
        node: 'general-c',
        nodePool: 'default',
        disruptable: false,
        blockedBy: 'pod default/db-0 is protected by PodDisruptionBudget default/db (0 disruptions allowed)',
      },
      {
        node: 'general-d',
        nodePool: 'default',
        disruptable: false,
        blockedBy: 'pod analytics/report-28593120-6hj2q has karpenter.sh/do-not-disrupt',
      },
      {
        node: 'general-e',
        nodePool: 'default',
        disruptable: false,
        blockedBy:
          'consolidateAfter 5m has not passed since pod default/worker-6b8d4-q9w3e was created (2024-06-03T13:58:10Z); consolidatable from 2024-06-03T14:03:10Z',
      },
    ]);
    expect(report.candidates.find((c) => c.node === 'general-a')?.pricePerHour).toBe(0.192);
    expect(report.budgets).toContainEqual({ nodePool: 'default', reason: 'Drifted', nodes: 5, allowed: 0 });
    expect(report.budgets).toContainEqual({
      nodePool: 'default',
      reason: 'Underutilized',
      nodes: 5,
      allowed: 3,
    });
    expect(report.now).toBe(Monday2pm);
  });

  it('takes the burst node too once consolidateAfter has passed', async () => {
    const report = await json(['disrupt', '-f', example, '--now', '2024-06-03T14:05:00Z']);
    expect(report.commands.map((c) => [c.method, c.candidates, c.savingsPerHour])).toEqual([
      // general-e first: same price, half the pods to move.
      ['multi-node-consolidation', ['general-e', 'general-a', 'general-b'], 0.576],
    ]);
  });

  it('lets the drift budget window decide when a drifted node is replaced', async () => {
    await writeFile(
      join(dir, 'drifted.yaml'),
      `apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: general-a-x9f2c
  labels: { karpenter.sh/nodepool: default }
spec:
  nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
  requirements: []
status:
  nodeName: general-a
  conditions:
    - { type: Initialized, status: "True", lastTransitionTime: "2024-06-01T08:13:00Z" }
    - { type: Drifted, status: "True", reason: AMIDrift, lastTransitionTime: "2024-06-03T10:00:00Z" }
`,
    );
    const inHours = await json(['disrupt', '-f', example, '-f', 'drifted.yaml', '--now', Monday2pm]);
    expect(inHours.commands.map((c) => c.method)).toEqual(['multi-node-consolidation']);
    expect(inHours.candidates.find((c) => c.node === 'general-a')).toMatchObject({
      disruptable: true,
      reasons: ['Underutilized'],
      drifted: 'NodeClaim is Drifted (AMIDrift)',
    });
    const evening = await json([
      'disrupt',
      '-f',
      example,
      '-f',
      'drifted.yaml',
      '--now',
      '2024-06-03T18:00:00Z',
    ]);
    expect(evening.commands).toEqual([
      {
        method: 'drift',
        reason: 'Drifted',
        candidates: ['general-a'],
        replacements: [],
        savingsPerHour: 0.192,
        moves: [
          { pod: 'default/web-7d9f6-m8q1z', node: 'general-b' },
          { pod: 'default/web-7d9f6-x2k4p', node: 'general-b' },
        ],
      },
    ]);
  });

  it('prints a table for people', async () => {
    const { code, out } = await run(['disrupt', '-f', example, '--now', Monday2pm]);
    expect(code).toBe(0);
    expect(out).toContain(
      'Command: multi-node-consolidation (Underutilized): delete: general-a, general-b; saves $0.3840/h',
    );
    expect(out).toMatch(/^ {2}default\/web-7d9f6-x2k4p -> general-c$/m);
    expect(out).toMatch(
      /^general-c {2}default {3}blocked: pod default\/db-0 is protected by PodDisruptionBudget default\/db \(0 disruptions allowed\)$/m,
    );
    expect(out).toMatch(/^general-a {2}default {3}disruptable \(Underutilized\)$/m);
    expect(out).toMatch(/^Summary: 6 managed nodes, 2 to disrupt, 4 blocked; saves \$0\.3840\/h$/m);
  });

  it('says in a sentence that nothing is to be disrupted, and counts one node in the singular', () => {
    const text = renderDisruptText({
      commands: [],
      candidates: [
        {
          node: 'n1',
          nodePool: 'default',
          disruptable: false,
          blockedBy: 'consolidateAfter not yet passed',
          reasons: [],
        },
      ],
      budgets: [],
      now: Monday2pm,
      ignored: [],
      notes: [],
      cutShort: [],
    });
    expect(text).toContain(
      'No command: neither emptiness, drift, nor multi-node or single-node consolidation found a node to disrupt now.\n',
    );
    expect(text).toMatch(/^Summary: 1 managed node, 0 to disrupt, 1 blocked$/m);
  });

  it('uses the clock when --now is not given', async () => {
    const report = await exampleReport(Date.parse('2024-06-03T14:05:00Z'), computeDisruption);
    expect(report.now).toBe('2024-06-03T14:05:00Z');
    expect(report.commands[0]?.candidates).toEqual(['general-e', 'general-a', 'general-b']);
  });
});

describe('nodewright disrupt: consolidation time budgets', () => {
  it('reports a search stopped at its budget in cutShort and the notes', async () => {
    // A search clock moving 100 s per read: multi-node's 60 s are gone at its first check.
    let searchNow = 0;
    const searchClock = { now: () => (searchNow += 100_000) };
    const report = await exampleReport(Date.parse(Monday2pm), (snapshot, now) =>
      computeDisruption(snapshot, now, { searchClock }),
    );
    const multi = report.cutShort.find((c) => c.method === 'multi-node-consolidation');
    expect(multi).toMatchObject({ budgetMs: 60_000, elapsedMs: 100_000, simulations: 0 });
    expect(multi?.skipped).toEqual(expect.arrayContaining(['general-a', 'general-b']));
    expect(report.notes).toContain(multi?.message);
    // Unbounded, the same pass deletes general-a and general-b together.
    expect(report.commands.map((c) => c.method)).not.toContain('multi-node-consolidation');
  });
});

describe('nodewright disrupt on small clusters', () => {
  const pool = (name: string, extra = '') => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: ${name} }
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements: []
${extra}---
`;
  const node = (name: string, type = 'm-4x-amd64') => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    karpenter.sh/nodepool: default
    karpenter.sh/capacity-type: on-demand
    node.kubernetes.io/instance-type: ${type}
    topology.kubernetes.io/zone: zone-a
    kubernetes.io/hostname: ${name}
status:
  allocatable: { cpu: 3920m, memory: 15391Mi, pods: "110" }
  conditions: [{ type: Ready, status: "True" }]
---
`;
  const catalog = join(example, 'catalog.yaml');

  it('deletes empty nodes first (emptiness)', async () => {
    await writeFile(join(dir, 'c.yaml'), pool('default') + node('idle-1') + node('idle-2'));
    const report = await json(['disrupt', '-f', 'c.yaml', '--catalog', catalog, '--now', Monday2pm]);
    expect(report.commands).toEqual([
      {
        method: 'emptiness',
        reason: 'Empty',
        candidates: ['idle-1'],
        replacements: [],
        savingsPerHour: 0.192,
        moves: [],
      },
    ]);
    // The default budget, 10 % of two nodes, rounds up to one.
    expect(report.candidates[1]).toEqual({
      node: 'idle-2',
      nodePool: 'default',
      disruptable: false,
      blockedBy:
        'the disruption budget of NodePool default allows 1 Empty disruption now, all taken by other nodes in this pass',
      reasons: [],
      pricePerHour: 0.192,
    });
  });

  it('replaces a node with a cheaper one, as a NodeClaim in the schedule shape', async () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: { name: small, namespace: default }
spec:
  nodeName: lonely
  containers: [{ name: app, image: app, resources: { requests: { cpu: 500m, memory: 1Gi } } }]
status: { phase: Running }
`;
    await writeFile(join(dir, 'c.yaml'), pool('default') + node('lonely') + pod);
    const report = await json(['disrupt', '-f', 'c.yaml', '--catalog', catalog, '--now', Monday2pm]);
    expect(report.commands).toHaveLength(1);
    const [command] = report.commands;
    expect(command?.method).toBe('single-node-consolidation');
    expect(command?.replacements).toHaveLength(1);
    const replacement = command!.replacements[0]!;
    expect(replacement.nodePool).toBe('default');
    expect(replacement.instanceTypes[0]).toBe('c-2x-amd64');
    expect(replacement.pods).toEqual(['default/small']);
    expect(replacement.price).toBe(0.032);
    expect(replacement.requirements).toContainEqual({
      key: 'karpenter.sh/capacity-type',
      operator: 'In',
      values: ['spot'],
    });
    expect(replacement.requests).toEqual({ cpu: '500m', memory: '1Gi', pods: '1' });
    expect(command?.savingsPerHour).toBe(0.16);
    expect(command?.moves).toEqual([{ pod: 'default/small', replacement: 0 }]);
  });

  it('exits 1 on invalid input, naming file, object and field', async () => {
    await writeFile(
      join(dir, 'bad.yaml'),
      pool('default', '  disruption:\n    consolidationPolicy: Sometimes\n'),
    );
    const { code, err } = await run(['disrupt', '-f', 'bad.yaml', '--now', Monday2pm]);
    expect(code).toBe(1);
    expect(err).toMatch(
      /^bad\.yaml: NodePool\/default: spec\.disruption\.consolidationPolicy: must be one of WhenEmpty, WhenEmptyOrUnderutilized/m,
    );
  });

  it.each([
    [
      ['disrupt', '-f', 'x.yaml', '--now', 'yesterday'],
      "--now must be an RFC 3339 time such as 2024-05-01T12:00:00Z, not 'yesterday'",
    ],
    [['disrupt', '-f', 'x.yaml', '-o', 'yaml'], "-o must be json or text, not 'yaml'"],
    [['disrupt'], '-f FILE is required'],
    [['disrupt', '-f', 'x.yaml', '--bogus'], "unknown option '--bogus'"],
  ])('exits 2 on a usage error: %j', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});
