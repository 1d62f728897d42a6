import { describe, expect, it } from 'vitest';
import { parseAwsSettings } from './settings.js';

describe('parseAwsSettings', () => {
  it('reads every setting, with static credentials', () => {
    expect(
      parseAwsSettings({
        region: 'eu-west-1',
        endpoint: 'http://127.0.0.1:4566',
        interruptionQueue: 'prod-interruptions',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
        clusterEndpoint: 'https://api.example.com',
        caBundle: 'Q0E=',
      }),
    ).toEqual({
      region: 'eu-west-1',
      pricingRegion: 'us-east-1',
      endpoint: 'http://127.0.0.1:4566',
      interruptionQueue: 'prod-interruptions',
      clusterEndpoint: 'https://api.example.com',
      caBundle: 'Q0E=',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
  });

  it('defaults the Pricing region by geography', () => {
    expect(parseAwsSettings({ region: 'ap-northeast-1' }).pricingRegion).toBe('ap-south-1');
    expect(parseAwsSettings({ region: 'us-west-2', pricingRegion: 'eu-central-1' }).pricingRegion).toBe(
      'eu-central-1',
    );
  });

  it('refuses unknown keys by name, a missing region, a bad endpoint and half credentials', () => {
    expect(() => parseAwsSettings({ region: 'us-west-2', regoin: 'x', queue: 'y' })).toThrow(
      /unknown settings regoin, queue/,
    );
    expect(() => parseAwsSettings({})).toThrow(/region is required/);
    expect(() => parseAwsSettings({ region: 'us-west-2', endpoint: 'not a url' })).toThrow(/endpoint/);
    expect(() => parseAwsSettings({ region: 'us-west-2', accessKeyId: 'AKID' })).toThrow(/secretAccessKey/);
  });
});
