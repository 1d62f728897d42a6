import { FakeClock } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { type AKSNodeClass, aksNodeClassSchema } from '../apis/index.js';
import { ImageResolutionError, NodeImageResolver } from './image-resolver.js';
import { type ImageVersionInfo, latestImageVersion, NodeImageGalleries } from './images.js';

const day = 86_400_000;
const v = (name: string, published: string, extra: Partial<ImageVersionInfo> = {}): ImageVersionInfo => ({
  name,
  publishedDate: new Date(published),
  ...extra,
});

describe('latestImageVersion', () => {
  const now = Date.parse('2025-12-01T00:00:00Z');
  it('is the most recently published version, whatever the listing order', () => {
    const versions = [
      v('202511.07.0', '2025-11-10'),
      v('202509.23.0', '2025-09-26'),
      v('202510.15.0', '2025-10-18'),
    ];
    expect(latestImageVersion(versions, now)).toBe('202511.07.0');
  });
  it('leaves out versions excluded from latest and past their end of life', () => {
    const versions = [
      v('202510.15.0', '2025-10-18'),
      v('202511.07.0', '2025-11-10', { excludeFromLatest: true }),
      v('202511.19.0', '2025-11-20', { endOfLifeDate: new Date('2025-11-30') }),
    ];
    expect(latestImageVersion(versions, now)).toBe('202510.15.0');
  });
  it('breaks a tie of publication dates by the higher version, numerically', () => {
    expect(latestImageVersion([v('202511.9.0', '2025-11-10'), v('202511.10.0', '2025-11-10')], now)).toBe(
      '202511.10.0',
    );
  });
  it('is undefined when nothing qualifies', () => {
    expect(latestImageVersion([v('1.0.0', '2025-01-01', { excludeFromLatest: true })], now)).toBeUndefined();
  });
});

const nodeClassOf = (spec: Record<string, unknown>): AKSNodeClass =>
  aksNodeClassSchema.parse({
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name: 'default' },
    spec,
  });

/** A gallery in memory that counts its list calls and can be made to fail. */
class FakeGallery {
  versions: ImageVersionInfo[] = [v('202510.15.0', '2025-10-18'), v('202511.07.0', '2025-11-10')];
  calls: string[] = [];
  failing = false;
  async *listCommunityGalleryImageVersions(location: string, gallery: string, image: string) {
    this.calls.push(`${location}/${gallery}/${image}`);
    if (this.failing) throw new Error('ServiceUnavailable');
    yield* this.versions;
  }
}

function world(options: { defaultVersion?: string } = {}) {
  const clock = new FakeClock(Date.parse('2025-12-01T00:00:00Z'));
  const gallery = new FakeGallery();
  const resolver = new NodeImageResolver({
    compute: gallery,
    location: 'eastus',
    clock,
    refreshMs: day,
    ...options,
  });
  return { clock, gallery, resolver };
}

describe('NodeImageResolver', () => {
  it("resolves each architecture's image definition of the family to its latest version", async () => {
    const { gallery, resolver } = world();
    const images = await resolver.resolve(nodeClassOf({ imageFamily: 'AzureLinux' }));
    expect(images).toEqual([
      {
        id: `/CommunityGalleries/${NodeImageGalleries.AzureLinux}/images/V2gen2/versions/202511.07.0`,
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      },
      {
        id: `/CommunityGalleries/${NodeImageGalleries.AzureLinux}/images/V2gen2arm64/versions/202511.07.0`,
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
      },
    ]);
    expect(gallery.calls).toEqual([
      `eastus/${NodeImageGalleries.AzureLinux}/V2gen2`,
      `eastus/${NodeImageGalleries.AzureLinux}/V2gen2arm64`,
    ]);
  });

  it('uses a pinned imageVersion that is published, and refuses one that is not', async () => {
    const { resolver } = world();
    const pinned = await resolver.resolve(
      nodeClassOf({ imageFamily: 'Ubuntu2404', imageVersion: '202510.15.0' }),
    );
    expect(pinned[0]?.id).toMatch(/\/images\/2404gen2containerd\/versions\/202510\.15\.0$/);
    await expect(resolver.resolve(nodeClassOf({ imageVersion: '202401.01.0' }))).rejects.toThrow(
      /image version 202401\.01\.0 is not published for 2204gen2containerd/,
    );
  });

  it("pins NodeClasses without imageVersion to the operator's version, the NodeClass's own pin first", async () => {
    const { resolver } = world({ defaultVersion: '202510.15.0' });
    expect((await resolver.resolve(nodeClassOf({})))[0]?.id).toMatch(/versions\/202510\.15\.0$/);
    expect((await resolver.resolve(nodeClassOf({ imageVersion: '202511.07.0' })))[0]?.id).toMatch(
      /versions\/202511\.07\.0$/,
    );
  });

  it('reads a gallery again only after refreshMs, and then sees a newly published version', async () => {
    const { clock, gallery, resolver } = world();
    await resolver.resolve(nodeClassOf({}));
    gallery.versions.push(v('202512.01.0', '2025-12-01'));
    expect((await resolver.resolve(nodeClassOf({})))[0]?.id).toMatch(/versions\/202511\.07\.0$/);
    expect(gallery.calls).toHaveLength(2);
    clock.step(day);
    expect((await resolver.resolve(nodeClassOf({})))[0]?.id).toMatch(/versions\/202512\.01\.0$/);
    expect(gallery.calls).toHaveLength(4);
  });

  it('keeps the last versions read when a later read fails; with none read, fails with the reason', async () => {
    const { clock, gallery, resolver } = world();
    gallery.failing = true;
    const error = await resolver.resolve(nodeClassOf({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageResolutionError);
    expect((error as Error).message).toMatch(
      /cannot list the versions of 2204gen2containerd.*ServiceUnavailable/,
    );
    gallery.failing = false;
    await resolver.resolve(nodeClassOf({}));
    gallery.failing = true;
    clock.step(day);
    expect((await resolver.resolve(nodeClassOf({})))[0]?.id).toMatch(/versions\/202511\.07\.0$/);
  });

  it('fails a definition without a version to launch', async () => {
    const { gallery, resolver } = world();
    gallery.versions = [v('202511.07.0', '2025-11-10', { excludeFromLatest: true })];
    await expect(resolver.resolve(nodeClassOf({}))).rejects.toThrow(/has no version of 2204gen2containerd/);
  });
});
