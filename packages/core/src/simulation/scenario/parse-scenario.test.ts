import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatScenarioError, parseScenario } from './parse-scenario.js';
import { replicaChanges } from './replica-schedule.js';

const examples = join(import.meta.dirname, '../../../../../examples/scenarios');
const benchmarks = join(import.meta.dirname, '../../../../../bench/scenarios');

const minimal = `name: t
duration: 1h
catalog: kwok
nodePools:
  - apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata: { name: default }
    spec:
      template:
        spec:
          nodeClassRef: { group: sim.nodewright.dev, kind: SimulatedNodeClass, name: default }
          requirements: []
`;

describe('parseScenario', () => {
  it('parses every shipped example and benchmark scenario', () => {
    const files = [examples, benchmarks].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) {
      const parsed = parseScenario(readFileSync(f, 'utf8'), f);
      expect(parsed.errors.map(formatScenarioError), f).toEqual([]);
    }
  });

  it("reads the scheduler's backoff: kube-scheduler's defaults, or the durations given", () => {
    expect(parseScenario(minimal, 's.yaml').scenario?.scheduler).toEqual({});
    expect(parseScenario(`${minimal}scheduler:\n  backoff: {}\n`, 's.yaml').scenario?.scheduler).toEqual({
      backoff: { initial: 1_000, max: 10_000 },
    });
    expect(
      parseScenario(`${minimal}scheduler:\n  backoff: { initial: 2s, max: 30s }\n`, 's.yaml').scenario
        ?.scheduler,
    ).toEqual({ backoff: { initial: 2_000, max: 30_000 } });
    const bad = parseScenario(`${minimal}scheduler:\n  backoff: { initial: 20s, max: 10s }\n`, 's.yaml');
    expect(bad.errors.map(formatScenarioError)).toEqual([
      expect.stringMatching(/scheduler\.backoff\.max.*must be at least initial/),
    ]);
  });

  it('fills defaults and converts durations to milliseconds', () => {
    const { scenario } = parseScenario(minimal, 's.yaml');
    expect(scenario?.duration).toBe(3_600_000);
    expect(scenario?.seed).toBe(1);
    expect(scenario?.workloads).toEqual({ deployments: [], jobs: [] });
    expect(scenario?.nodePools[0]?.spec.disruption.consolidateAfter).toBe('0s');
  });

  it('names the file, line and field of each problem', () => {
    const text = `${minimal}workloads:
  deployments:
    - name: web
      replicas: [{ at: 2h, replicas: 3 }, { at: 1h, replicas: 4 }]
      pod: { requests: { cpu: 1 }, colour: blue }
`;
    const { errors } = parseScenario(text.replace('duration: 1h', 'duration: soon'), 'bad.yaml');
    const lines = errors.map(formatScenarioError);
    expect(lines).toContain(
      'bad.yaml: Scenario/t: duration: must be a duration such as 30s, 10m or 1h30m, not "soon" (line 2)',
    );
    expect(lines).toContain(
      'bad.yaml: Scenario/t: workloads.deployments[0].pod: unknown field "colour" (line 17)',
    );
    expect(lines).toContain(
      'bad.yaml: Scenario/t: workloads.deployments[0].replicas[1].at: must be later than the step before (line 16)',
    );
  });

  it('reports YAML syntax errors and non-mappings', () => {
    expect(parseScenario('name: [', 'x.yaml').errors[0]).toMatchObject({ file: 'x.yaml', line: 1 });
    expect(parseScenario('- 1', 'y.yaml').errors[0]?.message).toBe(
      'a scenario must be a YAML mapping, not a list',
    );
    expect(parseScenario('name: a\n---\nname: b\n', 'z.yaml').errors.map(formatScenarioError)).toEqual([
      'z.yaml: a scenario file holds one YAML document, found 2 (separated by ---) (line 3)',
    ]);
    // A trailing --- adds an empty document, not a second scenario.
    expect(parseScenario(`${minimal}---\n`, 'w.yaml').errors).toEqual([]);
  });

  it('names the field a misspelt one most likely means', () => {
    const lines = parseScenario(minimal.replace('duration: 1h', 'durration: 1h'), 'm.yaml').errors.map(
      formatScenarioError,
    );
    expect(lines).toContain(
      'm.yaml: Scenario/t: unknown field "durration" (did you mean "duration"?) (line 2)',
    );
  });

  it('refuses events on NodePools that do not exist', () => {
    const text = `${minimal}events:\n  - { at: 10m, nodePoolPatch: { name: other, patch: {} } }\n`;
    expect(parseScenario(text, 'e.yaml').errors.map((e) => e.path)).toEqual(['events[0].nodePoolPatch.name']);
  });
});

describe('replicaChanges', () => {
  it('starts from zero before the first step and drops steps past the end', () => {
    const steps = [
      { at: 600_000, replicas: 3 },
      { at: 7_200_000, replicas: 5 },
    ];
    expect(replicaChanges(steps, 3_600_000)).toEqual([
      { at: 0, replicas: 0 },
      { at: 600_000, replicas: 3 },
    ]);
  });

  it('follows a day between min and max, peaking at peakAt', () => {
    const changes = replicaChanges({ diurnal: { min: 2, max: 10, peakAt: 43_200_000 } }, 86_400_000);
    expect(changes[0]).toEqual({ at: 0, replicas: 2 });
    expect(changes.filter((c) => c.at <= 43_200_000).at(-1)?.replicas).toBe(10);
    expect(changes.filter((c) => c.at <= 86_000_000).at(-1)?.replicas).toBe(2);
    expect(Math.max(...changes.map((c) => c.replicas))).toBe(10);
    for (let i = 1; i < changes.length; i++) expect(changes[i]!.replicas).not.toBe(changes[i - 1]!.replicas);
  });
});
