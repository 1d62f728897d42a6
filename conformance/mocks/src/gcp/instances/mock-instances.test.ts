import type { MockInstance } from '@nodewright/conformance/harness';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GcpMock, startGcpMock } from '../gcp-mock.js';
import { parseLabels, parseTaints } from './mock-instances.js';

let mock: GcpMock;
beforeEach(async () => {
  mock = await startGcpMock({ project: 'my-project' });
});
afterEach(async () => {
  await mock.close();
});

const until = async (what: string, done: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the GCE mock as a MockInstanceSource', () => {
  it('parses the kubelet metadata nodewright writes', () => {
    expect(parseLabels('a/b=1,karpenter.sh/nodepool=p')).toEqual({
      'a/b': '1',
      'karpenter.sh/nodepool': 'p',
    });
    expect(parseTaints('k=v:NoSchedule,x:NoExecute')).toEqual([
      { key: 'k', value: 'v', effect: 'NoSchedule' },
      { key: 'x', effect: 'NoExecute' },
    ]);
    expect(parseTaints('')).toEqual([]);
  });

  it('reports a VM running with its machine type, labels and taints, then terminated once deleted', async () => {
    const seen: MockInstance[] = [];
    const stop = mock.instances.watch((i) => seen.push(i));
    mock.compute.insert(
      'us-central1-b',
      {
        name: 'node-1',
        machineType: 'zones/us-central1-b/machineTypes/g2-standard-24',
        scheduling: { provisioningModel: 'SPOT', instanceTerminationAction: 'DELETE' },
        disks: [
          {
            boot: true,
            initializeParams: {
              sourceImage: 'projects/cos-cloud/global/images/family/cos-stable',
              diskSizeGb: '200',
            },
          },
        ],
        metadata: {
          items: [
            { key: 'kube-labels', value: 'karpenter.sh/nodepool=gpu' },
            { key: 'kube-taints', value: 'nvidia.com/gpu=true:NoSchedule' },
            { key: 'kube-startup-taints', value: 'example.com/driver:NoSchedule' },
          ],
        },
      } as unknown as Parameters<GcpMock['compute']['insert']>[1],
      null,
    );
    await until('running', () => seen.some((i) => i.state === 'running'));
    const running = seen.find((i) => i.state === 'running')!;
    expect(running).toMatchObject({
      providerID: 'gce://my-project/us-central1-b/node-1',
      nodeName: 'node-1',
      instanceType: 'g2-standard-24',
      capacityType: 'spot',
      architecture: 'amd64',
      capacity: {
        cpu: '24',
        memory: '98304Mi',
        'nvidia.com/gpu': '2',
        'ephemeral-storage': '200Gi',
        pods: '110',
      },
      labels: { 'karpenter.sh/nodepool': 'gpu' },
      taints: [
        { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
        { key: 'example.com/driver', effect: 'NoSchedule' },
      ],
    });
    mock.compute.delete('us-central1-b', 'node-1');
    await until('terminated', () => seen.some((i) => i.state === 'terminated'));
    // Polled: a short-lived status (pending, stopping) may fall between two polls.
    const states = seen.map((i) => i.state);
    expect(states.indexOf('running')).toBeLessThan(states.indexOf('terminated'));
    expect(states.at(-1)).toBe('terminated');
    stop();
  });
});
