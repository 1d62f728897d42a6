import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
    expect(err).toBe(
      'bad.yaml: Scenario/cli-short: duration: must be a duration such as 30s, 10m or 1h30m, not "two hours" (line 2)\n',
    );
  });

  // Every problem is one line in validate's format, `FILE: Kind/name: field: message (line N)`
  // or `FILE: message (line N)` where no object is involved, with no library or errno text.
  it.each([
    [
      'several YAML documents',
      'multi.yaml',
      `${scenario}---\n${scenario}`,
      `multi.yaml: a scenario file holds one YAML document, found 2 (separated by ---) (line ${scenario.split('\n').length + 1})`,
    ],
    [
      'a YAML syntax error',
      'syntax.yaml',
      'name: [web\nduration: 2h\n',
      /^syntax\.yaml: YAML syntax error: [^\n]+ \(line \d+, column \d+\)$/,
    ],
    [
      'a field of the wrong type',
      'type.yaml',
      scenario.replace('seed: 9', 'seed: [9]'),
      'type.yaml: Scenario/cli-short: seed: must be a number or a string, not a list (line 3)',
    ],
    [
      'a misspelt field',
      'spelt.yaml',
      scenario.replace('seed: 9', 'sed: 9'),
      'spelt.yaml: Scenario/cli-short: unknown field "sed" (did you mean "seed"?) (line 3)',
    ],
    [
      'a misspelt nested field',
      'nested.yaml',
      scenario.replace('    - name: web', '    - nmae: web'),
      'nested.yaml: Scenario/cli-short: workloads.deployments[0]: unknown field "nmae" (did you mean "name"?) (line 19)',
    ],
    [
      'an unknown catalog',
      'catalog.yaml',
      scenario.replace('catalog: kwok', 'catalog: kwk'),
      'catalog.yaml: Scenario/cli-short: catalog: unknown catalog "kwk" (did you mean "kwok"?); known: kwok (line 4)',
    ],
    [
      'a list',
      'list.yaml',
      '- name: x\n',
      'list.yaml: a scenario must be a YAML mapping, not a list (line 1)',
    ],
    [
      'binary data',
      'bin.yaml',
      '\u0000\u0001ELF',
      /^bin\.yaml: binary data, not YAML or JSON text .*\(line 1\)$/,
    ],
  ])('one line for %s', async (_, file, text, line) => {
    await writeFile(join(dir, file), text);
    const { code, out, err } = await run([file]);
    expect(code).toBe(1);
    expect(out).toBe('');
    const lines = err.trimEnd().split('\n');
    if (typeof line === 'string') expect(lines).toContain(line);
    else expect(lines.some((l) => line.test(l))).toBe(true);
    expect(err).not.toMatch(/parseAllDocuments|YAML\.parse|E[A-Z]{3,}:| at line \d+, column/);
  });

  it('refuses a directory or a missing file in one line without errno codes', async () => {
    await mkdir(join(dir, 'scenarios'));
    const directory = await run(['scenarios']);
    expect(directory.code).toBe(1);
    expect(directory.err).toBe(
      'scenarios: is a directory; simulate runs one scenario file (e.g. examples/scenarios/diurnal-web.yaml)\n',
    );
    const missing = await run(['missing.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('missing.yaml: cannot read: no such file or directory\n');
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
    expect(out).toMatch(/^ {2}launched +\d+ +\d+ +([+-]\d+|same)$/m);
    expect(out).toMatch(/^cluster-autoscaler node groups: default-on-demand \(/m);
    expect(out).toMatch(/^Cost: nodewright \$\d+\.\d\d, cluster-autoscaler \$\d+\.\d\d: /m);
  }, 120_000);
});
