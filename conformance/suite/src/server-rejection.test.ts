import { describe, expect, it } from 'vitest';
import { rejectionOf } from './server-rejection.js';

// Bodies as kube-apiserver v1.36 answers them.
describe('rejectionOf', () => {
  it('unpacks an Invalid Status, dropping the skipped-rules placeholder', () => {
    const body = {
      kind: 'Status',
      status: 'Failure',
      message: 'NodePool.karpenter.sh "x" is invalid: ...',
      reason: 'Invalid',
      code: 422,
      details: {
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Equals": supported values: "In", "NotIn"',
            field: 'spec.template.spec.requirements[0].operator',
          },
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
            field: '<nil>',
          },
        ],
      },
    };
    const rejection = rejectionOf({ status: 422, body, text: JSON.stringify(body) });
    expect(rejection.code).toBe(422);
    expect(rejection.reason).toBe('Invalid');
    expect(rejection.causes).toEqual([
      {
        field: 'spec.template.spec.requirements[0].operator',
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Equals": supported values: "In", "NotIn"',
      },
    ]);
  });

  it('takes the field of a format error from its message', () => {
    const body = {
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      details: {
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: "": Checked value must be of type integer with format int32 in spec.kubelet.maxPods',
            field: '<nil>',
          },
        ],
      },
    };
    expect(rejectionOf({ status: 422, body, text: '' }).causes[0]?.field).toBe('spec.kubelet.maxPods');
  });

  it('turns each unknown field of a strict-decoding error into a cause', () => {
    const body = {
      kind: 'Status',
      message:
        'NodePool in version "v1" cannot be handled as a NodePool: strict decoding error: unknown field "spec.a", unknown field "spec.b.c"',
      reason: 'BadRequest',
      code: 400,
    };
    const rejection = rejectionOf({ status: 400, body, text: JSON.stringify(body) });
    expect(rejection.reason).toBe('BadRequest');
    expect(rejection.causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.a', 'FieldValueUnknown'],
      ['spec.b.c', 'FieldValueUnknown'],
    ]);
  });

  it('falls back to the response text and status when the body is not a Status', () => {
    const rejection = rejectionOf({ status: 503, body: 'upstream down', text: 'upstream down' });
    expect(rejection).toEqual({ code: 503, reason: '', message: 'upstream down', causes: [] });
  });
});
