import { expect, test } from 'vitest';
import {
  AllowedKubernetesIoLabels,
  RestrictedLabelRules,
  restrictedLabelMessage,
} from './restricted-labels.js';

test('well-known labels and their beta aliases are allowed in kubernetes.io', () => {
  expect(AllowedKubernetesIoLabels).toEqual(
    expect.arrayContaining([
      'kubernetes.io/arch',
      'kubernetes.io/os',
      'topology.kubernetes.io/zone',
      'topology.kubernetes.io/region',
      'node.kubernetes.io/instance-type',
      'node.kubernetes.io/windows-build',
      'beta.kubernetes.io/arch',
      'failure-domain.beta.kubernetes.io/zone',
    ]),
  );
  for (const key of AllowedKubernetesIoLabels) expect(restrictedLabelMessage(key)).toBeUndefined();
});

test.each([
  ['example.com/team', undefined],
  ['team', undefined],
  ['node.kubernetes.io/pool', undefined],
  ['feature.node.kubernetes.io/cpu', undefined],
  ['node-restriction.kubernetes.io/team', undefined],
  ['kops.k8s.io/instancegroup', undefined],
  ['karpenter.sh/capacity-type', undefined],
  ['karpenter.k8s.aws/instance-family', undefined],
  ['kubernetes.io/team', 'kubernetes.io domain'],
  ['sub.kubernetes.io/team', 'kubernetes.io domain'],
  ['k8s.io/team', 'k8s.io domain'],
  ['example.k8s.io/team', 'k8s.io domain'],
  ['karpenter.sh/team', 'karpenter.sh domain'],
  ['sub.karpenter.sh/team', 'karpenter.sh domain'],
  ['karpenter.sh/nodepool', 'nodepool label'],
  ['kubernetes.io/hostname', 'hostname label'],
])('%s breaks %s', (key, ruleName) => {
  const rule = RestrictedLabelRules.find((r) => r.name === ruleName);
  expect(restrictedLabelMessage(key)).toBe(rule?.message);
  // The rules are disjoint: a key breaks at most one.
  expect(RestrictedLabelRules.filter((r) => !r.allows(key)).length).toBe(ruleName === undefined ? 0 : 1);
});

test('NodeClaims may carry the nodepool label', () => {
  expect(restrictedLabelMessage('karpenter.sh/nodepool', 'NodeClaim')).toBeUndefined();
  expect(restrictedLabelMessage('kubernetes.io/hostname', 'NodeClaim')).toBeDefined();
});
