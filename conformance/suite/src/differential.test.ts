import { describe, expect, it } from 'vitest';
import { compareVerdicts, type SideVerdict } from './differential.js';

const accepts: SideVerdict = { accepts: true, problems: [] };
const refuses = (...fields: string[]): SideVerdict => ({
  accepts: false,
  problems: fields.map((field) => ({ field, message: `bad ${field}` })),
});

describe('compareVerdicts', () => {
  it('agrees when both accept, or both refuse at the same or a containing field', () => {
    expect(compareVerdicts(accepts, accepts)).toBeUndefined();
    expect(compareVerdicts(refuses('spec.weight'), refuses('spec.weight'))).toBeUndefined();
    expect(
      compareVerdicts(refuses('spec.tags["kubernetes.io/cluster/x"]'), refuses('spec.tags')),
    ).toBeUndefined();
    expect(compareVerdicts(refuses('spec'), refuses('spec.kubelet.maxPod'))).toBeUndefined();
  });

  it('names the side that accepts alone, with the other side s fields', () => {
    const d = compareVerdicts(accepts, refuses('spec.taints[0].timeAdded'));
    expect(d?.kind).toBe('only nodewright accepts');
    expect(d?.signature).toBe('only nodewright accepts: spec.taints[*].timeAdded');
    expect(d?.description).toContain('API server: spec.taints[0].timeAdded: bad spec.taints[0].timeAdded');
    expect(compareVerdicts(refuses('spec.x'), accepts)?.kind).toBe('only the API server accepts');
  });

  it('flags refusals at unrelated fields, even where one name prefixes the other', () => {
    const d = compareVerdicts(refuses('spec.weight'), refuses('spec.weightx'));
    expect(d?.kind).toBe('both refuse at unrelated fields');
    expect(d?.signature).toBe('both refuse at unrelated fields: spec.weight, spec.weightx');
  });

  it('gives the same signature to the same disagreement at different list positions', () => {
    const a = compareVerdicts(accepts, refuses('spec.taints[0].timeAdded'));
    const b = compareVerdicts(accepts, refuses('spec.taints[2].timeAdded'));
    expect(a?.signature).toBe(b?.signature);
  });
});
