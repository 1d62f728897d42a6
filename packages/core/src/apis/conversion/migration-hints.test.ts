import { describe, expect, it } from 'vitest';
import { migrationHintFor } from './migration-hints.js';
import { nodePoolV1beta1Converter } from './nodepool-v1beta1.js';

const v1Pool = (spec: unknown) => ({ apiVersion: 'karpenter.sh/v1', kind: 'NodePool', value: { spec } });

describe('migrationHintFor', () => {
  it("explains v1beta1's consolidation policy name only for that value", () => {
    const pool = v1Pool({ disruption: { consolidationPolicy: 'WhenUnderutilized' } });
    expect(
      migrationHintFor([nodePoolV1beta1Converter], pool, ['spec', 'disruption', 'consolidationPolicy']),
    ).toBe(
      "WhenUnderutilized is v1beta1's name: v1 calls it WhenEmptyOrUnderutilized (nodewright convert upgrades a v1beta1 file)",
    );
    const other = v1Pool({ disruption: { consolidationPolicy: 'Sometimes' } });
    expect(
      migrationHintFor([nodePoolV1beta1Converter], other, ['spec', 'disruption', 'consolidationPolicy']),
    ).toBeUndefined();
  });

  it("says where v1 moved a v1beta1 field, for the converter's target version only", () => {
    const pool = v1Pool({ disruption: { expireAfter: '720h' } });
    expect(migrationHintFor([nodePoolV1beta1Converter], pool, ['spec', 'disruption', 'expireAfter'])).toBe(
      'v1 moved expireAfter to spec.template.spec.expireAfter (nodewright convert upgrades a v1beta1 file)',
    );
    expect(
      migrationHintFor([nodePoolV1beta1Converter], { ...pool, apiVersion: 'karpenter.sh/v1beta1' }, [
        'spec',
        'disruption',
        'expireAfter',
      ]),
    ).toBeUndefined();
    expect(
      migrationHintFor([nodePoolV1beta1Converter], v1Pool({ template: { spec: { kubelet: {} } } }), [
        'spec',
        'template',
        'spec',
        'kubelet',
      ]),
    ).toBe(
      'v1 moved kubelet settings to the NodeClass (EC2NodeClass spec.kubelet) (nodewright convert upgrades a v1beta1 file)',
    );
  });
});
