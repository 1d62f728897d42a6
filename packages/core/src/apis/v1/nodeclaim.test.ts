import { expect, test } from 'vitest';
import { exampleNodeClaim, withValue } from './examples.js';
import { nodeClaimSchema } from './nodeclaim.js';

test('a NodeClaim gets expireAfter 720h and string quantities', () => {
  const claim = nodeClaimSchema.parse(exampleNodeClaim());
  expect(claim.spec.expireAfter).toBe('720h');
  expect(claim.spec.resources?.requests).toEqual({ cpu: '1500m', memory: '2Gi', pods: '3' });
});

test('a NodeClaim status carries launch results and lenient conditions', () => {
  const status = {
    nodeName: 'ip-10-0-0-1',
    providerID: 'aws:///us-east-1a/i-0123',
    imageID: 'ami-0123',
    capacity: { cpu: '2', memory: '8Gi' },
    allocatable: { cpu: '1930m', memory: 7000000000 },
    conditions: [
      { type: 'Launched', status: 'True', lastTransitionTime: '2024-01-02T15:04:05Z', reason: '' },
    ],
    lastPodEventTime: '2024-01-02T15:05:00Z',
  };
  const claim = nodeClaimSchema.parse(withValue(exampleNodeClaim(), ['status'], status));
  expect(claim.status).toEqual({ ...status, allocatable: { cpu: '1930m', memory: '7000000000' } });
});

test('requirements are required on a NodeClaim', () => {
  const result = nodeClaimSchema.safeParse(
    withValue(exampleNodeClaim(), ['spec', 'requirements'], undefined),
  );
  expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['spec.requirements']);
});
