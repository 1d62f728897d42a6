import { describe, expect, it } from 'vitest';
import { podSchema } from '../../apis/kubernetes/pod.js';
import { formatResourceList } from '../resources/resource-list.js';
import { podRequests } from './requests.js';

const make = (spec: Record<string, unknown>) =>
  podSchema.parse({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
const c = (name: string, requests: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  name,
  resources: { requests },
  ...extra,
});

describe('podRequests', () => {
  it('sums app containers and adds one pod', () => {
    const p = make({ containers: [c('a', { cpu: '100m', memory: '1Gi' }), c('b', { cpu: '250m' })] });
    expect(formatResourceList(podRequests(p))).toEqual({ cpu: '350m', memory: '1Gi', pods: '1' });
  });

  it('uses limits for resources without a request', () => {
    const p = make({
      containers: [{ name: 'a', resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1' } } }],
    });
    expect(formatResourceList(podRequests(p))).toEqual({ cpu: '1', memory: '1Gi', pods: '1' });
  });

  it('takes the init peak when it is larger', () => {
    const p = make({
      containers: [c('a', { cpu: '1' })],
      initContainers: [c('i', { cpu: '4', memory: '10Mi' })],
    });
    expect(formatResourceList(podRequests(p))).toEqual({ cpu: '4', memory: '10Mi', pods: '1' });
  });

  it('adds sidecars to the app side and to later init containers', () => {
    const p = make({
      containers: [c('a', { cpu: '1' })],
      initContainers: [
        c('first', { cpu: '2' }),
        c('side', { cpu: '500m' }, { restartPolicy: 'Always' }),
        c('late', { cpu: '2' }),
      ],
    });
    // peaks: first 2; side 0.5; late 2 + 0.5 = 2.5. App: 1 + 0.5 = 1.5.
    expect(formatResourceList(podRequests(p))).toEqual({ cpu: '2500m', pods: '1' });
  });

  it('adds overhead and lets pod-level resources override cpu and memory', () => {
    const p = make({
      containers: [c('a', { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' })],
      overhead: { cpu: '100m', memory: '64Mi' },
      resources: { limits: { memory: '4Gi' }, requests: { cpu: '2' } },
    });
    expect(formatResourceList(podRequests(p))).toEqual({
      cpu: '2100m',
      memory: '4160Mi',
      'nvidia.com/gpu': '1',
      pods: '1',
    });
  });
});
