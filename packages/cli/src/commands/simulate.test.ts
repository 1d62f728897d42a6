import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogProviders } from '@nodewright/core/catalog';
import { runSimulation, type SimulationResult } from '@nodewright/core/simulation';
import { kwokCatalogProvider } from '@nodewright/kwok';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { UsageError } from '../command.js';
import { createCliServices } from '../compose.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createSimulateCommand } from './simulate.js';

let tick = 0;
const command = createSimulateCommand({
  catalogs: new CatalogProviders([kwokCatalogProvider]),
  run: runSimulation,
  // Each reading moves a second on, so the progress line shows up deterministically.
  wallClock: () => (tick += 1000),
});

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
  let code: number;
  try {
    const args = parseCommandArgs(argv, command.options, command.positionals);
    code = await command.run(args, { io, services: createCliServices(InTreeProviders) });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    code = 2;
  }
  return { code, out: io.out(), err: io.err() };
}

const scenario = `name: cli-short
duration: 2h
seed: 9
catalog: kwok
nodePools:
  - apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata: { name: default }
    spec:
      template:
        spec:
          nodeClassRef: { group: sim.nodewright.dev, kind: SimulatedNodeClass, name: default }
          requirements:
            - { key: kubernetes.io/os, operator: In, values: [linux] }
            - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }
      disruption: { consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m }
workloads:
  deployments:
    - name: web
      replicas: [{ at: 0, replicas: 20 }, { at: 1h, replicas: 2 }]
      pod: { requests: { cpu: "1", memory: 1Gi } }
`;

describe('nodewright simulate', () => {
  it('prints the summary as JSON and writes a self-contained HTML report', async () => {
    await writeFile(join(dir, 's.yaml'), scenario);
    const { code, out, err } = await run(['s.yaml', '-o', 'json', '--report', 'r.html']);
    expect(code).toBe(0);
    const elapsed = String.raw`(\d+\.\d s|\d+ min \d\d s)`;
    expect(err).toMatch(
      new RegExp(
        String.raw`^simulated \d+\.\d h of 2\.0 h: \d+ nodes?, \d+ pods? pending; ${elapsed} wall, about ${elapsed} to go$`,
        'm',
      ),
    );
    const result = JSON.parse(out) as SimulationResult;
    expect(result.summary.scenario).toBe('cli-short');
    expect(result.summary.nodes.launched).toBeGreaterThan(0);
    expect(result.summary.nodes.terminated).toBeGreaterThan(0);
    expect(result.summary.pods.pendingAtEnd).toBe(0);
    expect(result.summary.cost.total).toBeGreaterThan(0);
    const html = await readFile(join(dir, 'r.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('Cost per hour');
    expect(html).toContain('Disruptions by reason');
    // Each disruption of the run is one segment of a bar (or part of one), summing to the summary.
    const drawn = [...html.matchAll(/data-run="0" data-reason="[^"]+" data-count="(\d+)"/g)];
    const disrupted = Object.values(result.summary.disruptions).reduce((a, n) => a + n, 0);
    expect(disrupted).toBeGreaterThan(0);
    expect(drawn.reduce((a, m) => a + Number(m[1]), 0)).toBe(disrupted);
    expect(html).not.toMatch(/<script|https?:\/\//);
  }, 60_000);

  it('prints a text summary by default', async () => {
    await writeFile(join(dir, 's.yaml'), scenario);
    const { code, out } = await run(['s.yaml']);
    expect(code).toBe(0);
    expect(out).toMatch(/^nodes +launched \d+, terminated \d+, peak \d+, at end \d+$/m);
    expect(out).toMatch(/^pending time +p50 /m);
  }, 60_000);

  it('exits 1 naming the file, line and field of a bad scenario', async () => {
    await writeFile(join(dir, 'bad.yaml'), scenario.replace('duration: 2h', 'duration: two hours'));
    const { code, err } = await run(['bad.yaml']);
    expect(code).toBe(1);
    expect(err).toContain('bad.yaml:2: duration: must be a duration');
  });

  it('exits 1 for an unknown catalog or a missing file', async () => {
    await writeFile(join(dir, 'c.yaml'), scenario.replace('catalog: kwok', 'catalog: nope'));
    expect((await run(['c.yaml'])).err).toContain('unknown catalog "nope"');
    expect((await run(['missing.yaml'])).code).toBe(1);
  });

  it('exits 2 for usage errors', async () => {
    expect((await run([])).code).toBe(2);
    await writeFile(join(dir, 's.yaml'), scenario);
    expect((await run(['s.yaml', '-o', 'yaml'])).code).toBe(2);
    const bad = await run(['s.yaml', '--baseline', 'karpenter']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--baseline must be cluster-autoscaler, not 'karpenter'");
  });

  it('runs the Cluster Autoscaler baseline too: JSON baseline and comparison, both runs in the report', async () => {
    await writeFile(join(dir, 's.yaml'), scenario);
    const { code, out, err } = await run([
      's.yaml',
      '-o',
      'json',
      '--baseline',
      'cluster-autoscaler',
      '--report',
      'r.html',
    ]);
    expect(code).toBe(0);
    expect(err).toMatch(/^nodewright: simulated \d+\.\d h of 2\.0 h/m);
    expect(err).toMatch(/^cluster-autoscaler: simulated \d+\.\d h of 2\.0 h/m);
    const result = JSON.parse(out) as SimulationResult;
    const base = result.baseline!;
    expect(base.autoscaler).toBe('cluster-autoscaler');
    expect(base.nodeGroups).toEqual([expect.stringMatching(/^default-on-demand: /)]);
    expect(Object.keys(base.summary).sort()).toEqual(Object.keys(result.summary).sort());
    expect(base.summary.nodes.launched).toBeGreaterThan(0);
    expect(base.summary.pods.pendingAtEnd).toBe(0);
    expect(base.series.length).toBe(result.series.length);
    const c = result.comparison!;
    const pct = ((result.summary.cost.total - base.summary.cost.total) / base.summary.cost.total) * 100;
    expect(c.costDeltaPercent).toBeCloseTo(pct, 1);
    expect(c.utilisationDelta.cpu).toBeCloseTo(
      result.summary.utilisation.cpu - base.summary.utilisation.cpu,
      3,
    );
    const html = await readFile(join(dir, 'r.html'), 'utf8');
    expect(html).toContain('stroke-dasharray');
    expect(html).toContain('>CA cost</text>');
    expect(html).toContain('<th>cluster-autoscaler</th><th>difference</th>');
    // The baseline's scale-downs are disruptions too, drawn beside nodewright's.
    const scaledDown = base.summary.events['scale-down'] ?? 0;
    expect(scaledDown).toBeGreaterThan(0);
    expect((base.summary.disruptions.empty ?? 0) + (base.summary.disruptions.underutilized ?? 0)).toBe(
      scaledDown,
    );
    expect(html).toMatch(/<rect class="disruption" data-run="1"/);
    expect(html).not.toMatch(/<script|https?:\/\//);
  }, 120_000);

  it('prints both runs as a table with headings in text', async () => {
    await writeFile(join(dir, 's.yaml'), scenario);
    const { code, out } = await run(['s.yaml', '--baseline', 'cluster-autoscaler']);
    expect(code).toBe(0);
    expect(out).toMatch(/^ +nodewright +cluster-autoscaler +difference$/m);
    expect(out).toMatch(/^ {2}total +\$\d+\.\d\d +\$\d+\.\d\d +[+-]?\d+\.\d %$/m);
    expect(out).toMatch(/^ {2}launched +\d+ +\d+ +([+-]\d+|=)$/m);
    expect(out).toMatch(/^cluster-autoscaler node groups: default-on-demand \(/m);
    expect(out).toMatch(/^Cost: nodewright \$\d+\.\d\d, cluster-autoscaler \$\d+\.\d\d: /m);
  }, 120_000);
});
