import { describe, expect, it } from 'vitest';
import { instanceProfileNameForRole, MaxInstanceProfileNameLength } from './instance-profile.js';

describe('instanceProfileNameForRole', () => {
  it('is <cluster>_<hash>, the same on every call, different per NodeClass and region', () => {
    const a = instanceProfileNameForRole('prod', 'us-east-1', 'default');
    expect(a).toMatch(/^prod_[0-9]+$/);
    expect(instanceProfileNameForRole('prod', 'us-east-1', 'default')).toBe(a);
    expect(instanceProfileNameForRole('prod', 'us-east-1', 'gpu')).not.toBe(a);
    expect(instanceProfileNameForRole('prod', 'us-west-2', 'default')).not.toBe(a);
  });
  it('keeps within IAM limits', () => {
    const name = instanceProfileNameForRole(`my cluster/${'x'.repeat(200)}`, 'us-east-1', 'default');
    expect(name.length).toBeLessThanOrEqual(MaxInstanceProfileNameLength);
    expect(name).toMatch(/^[\w+=,.@-]+$/);
  });
});
