import { providerPluginProblems } from '@nodewright/core/operator';
import { describe, expect, it } from 'vitest';
import { azureProviderPlugin } from './azure-provider-plugin.js';
import { parseAzureSettings } from './settings.js';

const required = {
  subscriptionId: '00000000-0000-0000-0000-000000000000',
  location: 'eastus',
  nodeResourceGroup: 'MC_rg_cluster_eastus',
  kubernetesVersion: '1.33.2',
};

describe('parseAzureSettings', () => {
  it('reads the required settings and fills the defaults', () => {
    expect(parseAzureSettings(required)).toEqual({
      ...required,
      maxLaunchAttempts: 3,
    });
  });

  it('reads durations in ms and s, and the optional ones', () => {
    const s = parseAzureSettings({
      ...required,
      pollInterval: '500ms',
      retryDelay: '2s',
      requestTimeout: '30s',
      connectTimeout: '500ms',
      maxLaunchAttempts: '5',
      caFile: '/ca.pem',
      nodeImageVersion: '202511.07.0',
      imageRefresh: '30m',
    });
    expect(s).toMatchObject({
      nodeImageVersion: '202511.07.0',
      imageRefreshMs: 1_800_000,
      pollIntervalMs: 500,
      retryDelayMs: 2000,
      requestTimeoutMs: 30_000,
      connectTimeoutMs: 500,
      maxLaunchAttempts: 5,
      caFile: '/ca.pem',
    });
  });

  it.each([
    [{}, 'setting subscriptionId is required'],
    [{ ...required, subscriptionId: 'abc' }, 'setting subscriptionId "abc" is not a GUID'],
    [{ ...required, location: 'East US' }, 'setting location "East US" is not a region name'],
    [{ ...required, kubernetesVersion: 'latest' }, 'setting kubernetesVersion "latest" is not a version'],
    [
      { ...required, subnetID: '/subnets/x' },
      'setting subnetID "/subnets/x" is not an ARM subnet resource ID',
    ],
    [{ ...required, armEndpoint: 'not a url' }, 'setting armEndpoint "not a url" is not a URL'],
    [
      { ...required, maxLaunchAttempts: '0' },
      'setting maxLaunchAttempts "0" is not a whole number from 1 to 20',
    ],
    [{ ...required, pollInterval: 'soon' }, 'setting pollInterval "soon" is not a duration'],
    [{ ...required, region: 'eastus' }, 'unknown setting region'],
  ])('refuses %j', (raw, message) => {
    expect(() => parseAzureSettings(raw as Record<string, string>)).toThrow(message);
  });
});

describe('azureProviderPlugin', () => {
  it('is a well-formed plug-in: the AKSNodeClass kind, its settings and the azure catalogs', () => {
    expect(providerPluginProblems(azureProviderPlugin)).toEqual([]);
    expect(azureProviderPlugin.kinds.map((k) => `${k.apiVersion} ${k.kind}`)).toEqual([
      'karpenter.azure.com/v1beta1 AKSNodeClass',
    ]);
    expect(azureProviderPlugin.catalogs?.map((c) => c.name)).toEqual([
      'azure',
      'azure:eastus',
      'azure:westus2',
    ]);
  });
});
