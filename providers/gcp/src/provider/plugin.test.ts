import { describe, expect, it } from 'vitest';
import gcpPlugin from '../index.js';
import { GcpSettingKeys } from './settings.js';

describe('the gcp plug-in object', () => {
  it('names the provider, its GCENodeClass kind, settings and catalogs', () => {
    expect(gcpPlugin.name).toBe('gcp');
    expect(gcpPlugin.kinds.map((k) => `${k.apiVersion} ${k.kind}`)).toEqual([
      'karpenter.k8s.gcp/v1alpha1 GCENodeClass',
    ]);
    expect(gcpPlugin.settings).toBe(GcpSettingKeys);
    expect(gcpPlugin.catalogs?.map((c) => c.name)).toEqual(['gcp', 'gcp:us-central1', 'gcp:us-east1']);
  });

  it('refuses bad settings before building any client', async () => {
    await expect(gcpPlugin.create({ settings: { region: 'us-central1' } } as never)).rejects.toThrow(
      'gcp provider: setting project is required',
    );
  });
});
