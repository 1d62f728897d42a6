import { describe, expect, it } from 'vitest';
import { kwokNodeClassHash } from './hash.js';
import { kwokNodeClassSchema } from './kwoknodeclass.js';

const base = {
  apiVersion: 'karpenter.kwok.sh/v1alpha1',
  kind: 'KWOKNodeClass',
  metadata: { name: 'default' },
};

describe('KWOKNodeClass schema', () => {
  it('defaults an absent spec to {}', () => {
    expect(kwokNodeClassSchema.parse(base).spec).toEqual({});
  });

  it('accepts a Go-style registration delay and rejects other text, naming the field', () => {
    expect(kwokNodeClassSchema.parse({ ...base, spec: { nodeRegistrationDelay: '1m30s' } }).spec).toEqual({
      nodeRegistrationDelay: '1m30s',
    });
    const bad = kwokNodeClassSchema.safeParse({ ...base, spec: { nodeRegistrationDelay: '90' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['spec', 'nodeRegistrationDelay']);
  });

  it('rejects unknown top-level fields', () => {
    expect(kwokNodeClassSchema.safeParse({ ...base, extra: 1 }).success).toBe(false);
  });
});

describe('kwokNodeClassHash', () => {
  it('changes with the registration delay and ignores an unset or empty one', () => {
    const none = kwokNodeClassHash({ spec: {} });
    expect(kwokNodeClassHash({ spec: { nodeRegistrationDelay: '' } as never })).toBe(none);
    expect(kwokNodeClassHash({ spec: { nodeRegistrationDelay: '10s' } })).not.toBe(none);
    expect(kwokNodeClassHash({ spec: { nodeRegistrationDelay: '10s' } })).toBe(
      kwokNodeClassHash({ spec: { nodeRegistrationDelay: '10s' } }),
    );
  });
});
