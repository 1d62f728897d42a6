import { describe, expect, it } from 'vitest';
import { messageAgreement } from './message-agreement.js';
import type { ServerCause } from './server-rejection.js';

const cause = (reason: string, message: string, field = 'spec.x'): ServerCause => ({
  field,
  reason,
  message,
});
const invalid = (message: string) => cause('FieldValueInvalid', message);

describe('messageAgreement', () => {
  it('finds nodewright message inside a CEL error word for word', () => {
    expect(
      messageAgreement(
        'operator In needs at least one value',
        invalid('Invalid value: operator In needs at least one value'),
      ),
    ).toEqual({ kind: 'same' });
  });

  it('reads bounds in the server words, with the same number only', () => {
    const min = invalid('Invalid value: 0: spec.weight in body should be greater than or equal to 1');
    expect(messageAgreement('must be at least 1', min)).toEqual({ kind: 'equivalent', how: 'minimum' });
    expect(messageAgreement('must be at least 2', min)).toBeUndefined();
    const zero = invalid('Invalid value: -1: spec.replicas in body should be greater than or equal to 0');
    expect(messageAgreement('must not be negative', zero)).toEqual({ kind: 'equivalent', how: 'minimum 0' });
    const max = invalid('Invalid value: 101: spec.weight in body should be less than or equal to 100');
    expect(messageAgreement('must be at most 100', max)?.kind).toBe('equivalent');
    expect(messageAgreement('must be at most 10', max)).toBeUndefined();
  });

  it('matches list and string sizes by their limit', () => {
    const many = cause('FieldValueTooMany', 'Too many: 101: must have at most 100 items');
    expect(messageAgreement('must have at most 100 taints', many)?.kind).toBe('equivalent');
    expect(messageAgreement('must have at most 50 taints', many)).toBeUndefined();
    const long = cause('FieldValueTooLong', 'Too long: may not be more than 30 bytes');
    expect(messageAgreement('must be at most 30 characters long', long)?.kind).toBe('equivalent');
    const empty = invalid('Invalid value: "": spec.role in body should be at least 1 chars long');
    expect(messageAgreement('must not be empty', empty)?.kind).toBe('equivalent');
    const few = invalid('Invalid value: 0: spec.amiSelectorTerms in body should have at least 1 items');
    expect(messageAgreement('must have at least one term', few)?.kind).toBe('equivalent');
  });

  it('compares enum values as sets', () => {
    const unsupported = cause(
      'FieldValueNotSupported',
      'Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
    expect(messageAgreement('must be one of NoSchedule, PreferNoSchedule, NoExecute', unsupported)).toEqual({
      kind: 'equivalent',
      how: 'enum',
    });
    expect(messageAgreement('must be one of NoSchedule, NoExecute', unsupported)).toBeUndefined();
    const single = cause('FieldValueNotSupported', 'Unsupported value: "RAID1": supported values: "RAID0"');
    expect(messageAgreement('must be RAID0', single)?.kind).toBe('equivalent');
    expect(messageAgreement('must be RAID5', single)).toBeUndefined();
  });

  it('accepts a pattern failure only for the pattern of the field in question', () => {
    const failure = invalid(`Invalid value: "30d": spec.x in body should match '^(([0-9]+(s|m|h))+|Never)$'`);
    const message = 'must be a duration such as 30s, 10m or 1h30m, or Never';
    expect(messageAgreement(message, failure, { pattern: '^(([0-9]+(s|m|h))+|Never)$' })).toEqual({
      kind: 'equivalent',
      how: 'pattern',
    });
    expect(messageAgreement(message, failure, { pattern: '^([0-9]+(s|m|h))+$' })).toBeUndefined();
    expect(messageAgreement(message, failure)).toBeUndefined();
  });

  it('knows required, type, duplicate and unknown-field errors by their reason', () => {
    expect(messageAgreement('is required', cause('FieldValueRequired', 'Required value'))?.kind).toBe(
      'equivalent',
    );
    expect(messageAgreement('is required', invalid('Invalid value: ""'))).toBeUndefined();
    const integer = cause(
      'FieldValueTypeInvalid',
      'Invalid value: "number": spec.x in body must be of type integer: "number"',
    );
    expect(messageAgreement('must be an integer', integer)?.kind).toBe('equivalent');
    expect(messageAgreement('must be a string such as "10%"', integer)).toBeUndefined();
    const duplicate = cause('FieldValueDuplicate', 'Duplicate value: "Drifted"');
    expect(messageAgreement('lists Drifted twice', duplicate)?.kind).toBe('equivalent');
    expect(messageAgreement('lists Empty twice', duplicate)).toBeUndefined();
    const unknown = cause('FieldValueUnknown', 'unknown field "spec.kubelet.maxPod"');
    expect(messageAgreement('unknown field "maxPod"', unknown)?.kind).toBe('equivalent');
  });

  it('finds nothing in an error about another rule', () => {
    expect(
      messageAgreement(
        'schedule is required when duration is set',
        invalid('Invalid value: duration is required when schedule is set'),
      ),
    ).toBeUndefined();
  });
});
