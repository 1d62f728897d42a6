import { describe, expect, it } from 'vitest';
import { DEFAULT_STAGE_OPTIONS, kwokStages, renderKwokConfig } from './kwok-stages.js';

const stages = kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion: 'v1.99.7' });
const byName = (name: string) => {
  const stage = stages.find((s) => s.metadata.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  return stage;
};

describe('kwokStages', () => {
  it('defines the five stages the suite relies on', () => {
    expect(stages.map((s) => s.metadata.name)).toEqual([
      'node-initialize',
      'node-heartbeat-with-lease',
      'pod-ready',
      'pod-complete',
      'pod-delete',
    ]);
    for (const s of stages) expect(s.apiVersion).toBe('kwok.x-k8s.io/v1alpha1');
  });

  it('initializes nodes that are not Ready, keeping capacity the creator set', () => {
    const init = byName('node-initialize');
    expect(init.spec.resourceRef).toEqual({ apiGroup: 'v1', kind: 'Node' });
    expect(init.spec.selector.matchExpressions).toEqual([
      expect.objectContaining({ operator: 'NotIn', values: ['True'] }),
    ]);
    const template = init.spec.next.statusTemplate ?? '';
    expect(template).toContain('{{ with .status.capacity }}');
    expect(template).toContain('"v1.99.7"');
    expect(template).toContain('phase: Running');
  });

  it('spaces node heartbeats by the configured interval', () => {
    const options = { ...DEFAULT_STAGE_OPTIONS, nodeHeartbeatIntervalMs: 20_000, kubeletVersion: 'v1' };
    const heartbeat = kwokStages(options).find((s) => s.metadata.name === 'node-heartbeat-with-lease');
    expect(heartbeat?.spec.delay).toEqual({
      durationMilliseconds: 20_000,
      jitterDurationMilliseconds: 22_000,
    });
  });

  it('runs only bound pods that are not being deleted, and completes only Job pods', () => {
    const ready = byName('pod-ready').spec.selector.matchExpressions.map((e) => `${e.key} ${e.operator}`);
    expect(ready).toEqual(
      expect.arrayContaining(['.metadata.deletionTimestamp DoesNotExist', '.spec.nodeName Exists']),
    );
    const complete = byName('pod-complete').spec.selector.matchExpressions;
    expect(complete).toContainEqual({
      key: '.metadata.ownerReferences.[].kind',
      operator: 'In',
      values: ['Job'],
    });
  });

  it('deletes pods that have a deletion timestamp', () => {
    const del = byName('pod-delete');
    expect(del.spec.selector.matchExpressions).toEqual([
      { key: '.metadata.deletionTimestamp', operator: 'Exists' },
    ]);
    expect(del.spec.next).toEqual({ delete: true });
  });

  it('adds a pod-ready delay only when one is asked for', () => {
    expect(byName('pod-ready').spec.delay).toBeUndefined();
    const delayed = kwokStages({ ...DEFAULT_STAGE_OPTIONS, podReadyDelayMs: 500, kubeletVersion: 'v1' });
    expect(delayed.find((s) => s.metadata.name === 'pod-ready')?.spec.delay).toEqual({
      durationMilliseconds: 500,
    });
  });
});

describe('renderKwokConfig', () => {
  it('writes one JSON document per stage, separated as YAML documents', () => {
    const text = renderKwokConfig(stages);
    const docs = text.split('\n---\n');
    expect(docs).toHaveLength(stages.length);
    expect(docs.map((d) => JSON.parse(d))).toEqual(stages);
  });
});
