import { FakeClock } from '@nodewright/core/clock';
import { MemoryCluster } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import type { AKSNodeClass } from '../apis/index.js';
import { ImageResolutionError } from './image-resolver.js';
import type { ResolvedImage } from './images.js';
import { AKSNodeClasses } from './reader.js';
import { AKSNodeClassStatusController, ImagesRetryMs, StatusRefreshMs } from './status-controller.js';

const image = (version: string): ResolvedImage => ({
  id: `/CommunityGalleries/g/images/2204gen2containerd/versions/${version}`,
  requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
});

async function world() {
  const clock = new FakeClock(Date.parse('2026-12-04T12:00:00Z'));
  const cluster = new MemoryCluster({ clock, kinds: [AKSNodeClasses] });
  await cluster.create(AKSNodeClasses, {
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name: 'default' },
    spec: { imageFamily: 'Ubuntu2204' },
  } as unknown as AKSNodeClass);
  const state: { result: ResolvedImage[] | Error } = { result: [image('202511.07.0')] };
  const controller = new AKSNodeClassStatusController({
    cluster,
    clock,
    kubernetesVersion: '1.33.2',
    defaultSubnetID:
      '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/n',
    images: {
      resolve: async () => {
        if (state.result instanceof Error) throw state.result;
        return state.result;
      },
    },
  });
  const reconcile = () => controller.reconcile({ name: 'default' });
  const status = async () => (await cluster.get(AKSNodeClasses, { name: 'default' })).status;
  return { state, reconcile, status };
}

describe('AKSNodeClassStatusController', () => {
  it('records the resolved images and Kubernetes version, Ready, and resolves again periodically', async () => {
    const w = await world();
    expect(await w.reconcile()).toEqual({ requeueAfterMs: StatusRefreshMs });
    const status = await w.status();
    expect(status?.images).toEqual([image('202511.07.0')]);
    expect(status?.kubernetesVersion).toBe('1.33.2');
    expect(status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True' });
  });

  it('moves the images to a newly resolved version', async () => {
    const w = await world();
    await w.reconcile();
    w.state.result = [image('202512.01.0')];
    await w.reconcile();
    expect((await w.status())?.images).toEqual([image('202512.01.0')]);
  });

  it('an image that does not resolve: Ready False ImagesNotReady with the reason, last images kept, retried sooner', async () => {
    const w = await world();
    await w.reconcile();
    w.state.result = new ImageResolutionError('image version 1.0.0 is not published for 2204gen2containerd');
    expect(await w.reconcile()).toEqual({ requeueAfterMs: ImagesRetryMs });
    const status = await w.status();
    expect(status?.images).toEqual([image('202511.07.0')]);
    expect(status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ImagesNotReady',
      message: 'image version 1.0.0 is not published for 2204gen2containerd',
    });
  });

  it('any other failure is the reconcile failing (retried with backoff), not a condition', async () => {
    const w = await world();
    w.state.result = new Error('socket hang up');
    await expect(w.reconcile()).rejects.toThrow('socket hang up');
  });
});
