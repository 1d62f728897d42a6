import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { containerSchema, initContainerSchema, resourceRequirementsSchema } from './container.js';

const errorsOf = (schema: { safeParse(v: unknown): { error?: { issues: unknown[] } } }, value: unknown) =>
  fieldErrors((schema.safeParse(value).error?.issues ?? []) as Parameters<typeof fieldErrors>[0]).map((e) => [
    e.path,
    e.message,
  ]);

describe('resourceRequirementsSchema', () => {
  it('accepts requests within limits and normalises numbers', () => {
    expect(
      resourceRequirementsSchema.parse({ requests: { cpu: 0.5, memory: '1Gi' }, limits: { cpu: 1 } }),
    ).toEqual({
      requests: { cpu: '0.5', memory: '1Gi' },
      limits: { cpu: '1' },
    });
  });

  it('rejects a request above its limit, across suffixes', () => {
    expect(
      errorsOf(resourceRequirementsSchema, { requests: { memory: '2Gi' }, limits: { memory: '2000Mi' } }),
    ).toEqual([['requests.memory', 'must be less than or equal to the memory limit (2000Mi)']]);
    expect(
      errorsOf(resourceRequirementsSchema, { requests: { cpu: '1500m' }, limits: { cpu: '1.5' } }),
    ).toEqual([]);
  });

  it('rejects negative and malformed quantities', () => {
    expect(errorsOf(resourceRequirementsSchema, { requests: { cpu: '-1' } })).toEqual([
      ['requests.cpu', 'must not be negative'],
    ]);
    expect(errorsOf(resourceRequirementsSchema, { limits: { memory: '1 GB' } })[0]?.[0]).toBe(
      'limits.memory',
    );
  });
});

describe('containerSchema', () => {
  it('defaults port protocol to TCP and keeps host ports', () => {
    const c = containerSchema.parse({ name: 'web', ports: [{ containerPort: 80, hostPort: 8080 }] });
    expect(c.ports).toEqual([{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }]);
  });

  it('checks port ranges and protocols', () => {
    expect(
      errorsOf(containerSchema, {
        name: 'web',
        ports: [
          { containerPort: 0 },
          { containerPort: 80, hostPort: 70000 },
          { containerPort: 80, protocol: 'ICMP' },
        ],
      }),
    ).toEqual([
      ['ports[0].containerPort', 'must be from 1 to 65535'],
      ['ports[1].hostPort', 'must be from 0 to 65535'],
      ['ports[2].protocol', 'must be one of TCP, UDP, SCTP'],
    ]);
  });

  it('forbids restartPolicy on app containers', () => {
    expect(errorsOf(containerSchema, { name: 'web', restartPolicy: 'Always' })).toEqual([
      ['restartPolicy', 'may only be set on init containers'],
    ]);
  });

  it('requires a name', () => {
    expect(errorsOf(containerSchema, {})).toEqual([['name', 'is required']]);
  });
});

describe('initContainerSchema', () => {
  it('accepts restartPolicy Always (a sidecar) and nothing else', () => {
    expect(initContainerSchema.parse({ name: 'proxy', restartPolicy: 'Always' }).restartPolicy).toBe(
      'Always',
    );
    expect(errorsOf(initContainerSchema, { name: 'init', restartPolicy: 'OnFailure' })).toEqual([
      ['restartPolicy', 'must be Always (the only policy an init container may set)'],
    ]);
  });
});
