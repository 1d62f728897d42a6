import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { daemonSetSchema } from './daemon-set.js';

const ds = (selector: unknown, labels: Record<string, string> | undefined) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'kube-system' },
  spec: {
    selector,
    template: {
      metadata: { creationTimestamp: null, ...(labels === undefined ? {} : { labels }) },
      spec: { containers: [{ name: 'agent', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    },
  },
});
const errorsOf = (value: unknown) =>
  fieldErrors(daemonSetSchema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

describe('daemonSetSchema', () => {
  it('parses the pod template', () => {
    const parsed = daemonSetSchema.parse(ds({ matchLabels: { app: 'agent' } }, { app: 'agent' }));
    expect(parsed.spec.template.spec.containers[0]?.resources?.requests).toEqual({
      cpu: '100m',
      memory: '128Mi',
    });
    expect(parsed.spec.template.spec.schedulerName).toBe('default-scheduler');
  });

  it('the selector must select the template labels and must not be empty', () => {
    expect(errorsOf(ds({ matchLabels: { app: 'other' } }, { app: 'agent' }))).toEqual([
      ['spec.template.metadata.labels', 'must match spec.selector'],
    ]);
    expect(errorsOf(ds({}, { app: 'agent' }))).toEqual([['spec.selector', 'must not be empty']]);
  });

  it('requires a selector and a template with containers', () => {
    expect(
      errorsOf({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'a' },
        spec: { template: { spec: {} } },
      }),
    ).toEqual([
      ['spec.selector', 'is required'],
      ['spec.template.spec.containers', 'is required'],
    ]);
  });
});
