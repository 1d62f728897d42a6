import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ClusterAutoscalerDefaults, ClusterAutoscalerSimulator } from './cluster-autoscaler.js';

/** The README's table of defaults: key -> the default as written there. */
function documentedDefaults(): Map<string, string> {
  const text = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const key = /^`(\w+)`$/.exec(cells[3] ?? '')?.[1];
    if (key !== undefined) rows.set(key, cells[2]!);
  }
  return rows;
}

/** "10s", "10m", "600" (seconds), "0.5" as the simulator's unit: ms, or a plain number. */
function asSetting(key: string, written: string): number {
  const m = /^(\d+(?:\.\d+)?)([sm]?)$/.exec(written);
  if (m === null) throw new Error(`${key}: cannot read ${written}`);
  const n = Number(m[1]);
  if (!key.endsWith('Ms')) return n;
  return m[2] === 'm' ? n * 60_000 : n * 1000;
}

describe("Cluster Autoscaler's documented defaults", () => {
  it('the README names every default the simulator has, with the same value', () => {
    const documented = documentedDefaults();
    expect([...documented.keys()].sort()).toEqual(Object.keys(ClusterAutoscalerDefaults).sort());
    for (const [key, written] of documented) {
      expect(asSetting(key, written), key).toBe(
        ClusterAutoscalerDefaults[key as keyof typeof ClusterAutoscalerDefaults],
      );
    }
    // CA's FAQ values, spelled out once more so a change of both table and code still fails here.
    expect(ClusterAutoscalerDefaults).toEqual({
      scanIntervalMs: 10_000,
      scaleDownUtilizationThreshold: 0.5,
      scaleDownUnneededMs: 10 * 60_000,
      scaleDownDelayAfterAddMs: 10 * 60_000,
      maxNodeProvisionMs: 15 * 60_000,
      nodeGroupBackoffMs: 5 * 60_000,
      maxGracefulTerminationMs: 600_000,
    });
  });

  it('a simulator given no options runs on the defaults; a given option wins', () => {
    const deps = {} as ConstructorParameters<typeof ClusterAutoscalerSimulator>[0];
    expect(new ClusterAutoscalerSimulator(deps).settings).toEqual(ClusterAutoscalerDefaults);
    expect(new ClusterAutoscalerSimulator(deps, { scaleDownUnneededMs: 1 }).settings).toEqual({
      ...ClusterAutoscalerDefaults,
      scaleDownUnneededMs: 1,
    });
  });
});
