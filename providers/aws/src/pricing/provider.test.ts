import type { DescribeSpotPriceHistoryCommandOutput } from '@aws-sdk/client-ec2';
import type { GetProductsCommandOutput } from '@aws-sdk/client-pricing';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { fakeEc2, fakePricing, paged } from '../instancetype/fake-ec2.js';
import type { ProviderLogger } from '../instancetype/logger.js';
import { priceListItem } from './fixtures.js';
import { PricesRefreshMs, PricingProvider } from './provider.js';
import { staticOnDemandPrices } from './static-prices.js';

const meta = { $metadata: {} };

function logger() {
  const lines: Array<{ level: string; message: string }> = [];
  const log = (level: string) => (_fields: object, message: string) => {
    lines.push({ level, message });
  };
  const l: ProviderLogger = { info: log('info'), warn: log('warn'), error: log('error') };
  return { l, lines };
}

function setup(region = 'us-east-1') {
  const clock = new FakeClock(Date.UTC(2026, 11, 2, 12));
  const timers = new ManualTimers(clock);
  const state = { pricingFails: false, spotFails: false };
  const pricing = fakePricing({
    getProducts: async (input) => {
      if (state.pricingFails) throw new Error('ThrottlingException');
      return paged(
        [
          priceListItem('m5.large', '0.0970000000'),
          priceListItem('c5.large', '0.0850000000'),
          priceListItem('x.y', '0'),
        ],
        2,
        (PriceList, NextToken): GetProductsCommandOutput => ({
          ...meta,
          PriceList,
          NextToken,
          FormatVersion: 'aws_v1',
        }),
      )(input);
    },
  });
  const at = (m: number) => new Date(Date.UTC(2026, 11, 2, 11, m));
  const ec2 = fakeEc2({
    describeSpotPriceHistory: async (input) => {
      if (state.spotFails) throw new Error('RequestLimitExceeded');
      return paged(
        [
          { InstanceType: 'm5.large', AvailabilityZone: 'us-east-1a', SpotPrice: '0.041', Timestamp: at(10) },
          { InstanceType: 'm5.large', AvailabilityZone: 'us-east-1a', SpotPrice: '0.039', Timestamp: at(50) },
          { InstanceType: 'm5.large', AvailabilityZone: 'us-east-1b', SpotPrice: '0.044', Timestamp: at(20) },
          { InstanceType: 'm5.large', AvailabilityZone: 'us-east-1a', SpotPrice: '0.050', Timestamp: at(5) },
        ] as const,
        2,
        (SpotPriceHistory, NextToken): DescribeSpotPriceHistoryCommandOutput => ({
          ...meta,
          SpotPriceHistory: [...SpotPriceHistory],
          NextToken,
        }),
      )(input);
    },
  });
  const { l, lines } = logger();
  const provider = new PricingProvider({ pricing, ec2, region, clock, timers, logger: l });
  return { provider, pricing, ec2, timers, clock, lines, state };
}

describe('PricingProvider', () => {
  it('answers from the static table, spot = on-demand, before any refresh', () => {
    const { provider } = setup();
    expect(provider.onDemand('m5.large')).toBe(0.096);
    expect(provider.spot('m5.large', 'us-east-1a')).toBe(0.096);
    expect(provider.onDemand('unknown.type')).toBeUndefined();
  });

  it('reads every page of GetProducts with the Linux/shared/used filters', async () => {
    const { provider, pricing } = setup();
    await provider.refreshOnDemand();
    expect(pricing.calls.map((c) => (c.input as { NextToken?: string }).NextToken)).toEqual([undefined, '2']);
    expect(pricing.calls[0]?.input).toEqual({
      ServiceCode: 'AmazonEC2',
      FormatVersion: 'aws_v1',
      Filters: [
        { Type: 'TERM_MATCH', Field: 'regionCode', Value: 'us-east-1' },
        { Type: 'TERM_MATCH', Field: 'operatingSystem', Value: 'Linux' },
        { Type: 'TERM_MATCH', Field: 'tenancy', Value: 'Shared' },
        { Type: 'TERM_MATCH', Field: 'capacitystatus', Value: 'Used' },
        { Type: 'TERM_MATCH', Field: 'preInstalledSw', Value: 'NA' },
      ],
    });
    expect(provider.onDemand('m5.large')).toBe(0.097);
    expect(provider.onDemand('c5.large')).toBe(0.085);
    // Live prices replace the table: a type the API does not price has no price.
    expect(provider.onDemand('r5.large')).toBeUndefined();
    expect(provider.onDemandLive).toBe(true);
  });

  it('keeps the newest spot price per type and zone, from now, over every page', async () => {
    const { provider, ec2, clock } = setup();
    const before = provider.generation();
    await provider.refreshSpot();
    expect(ec2.calls.map((c) => c.input)).toEqual([
      { ProductDescriptions: ['Linux/UNIX'], StartTime: new Date(clock.now()) },
      { ProductDescriptions: ['Linux/UNIX'], StartTime: new Date(clock.now()), NextToken: '2' },
    ]);
    expect(provider.spot('m5.large', 'us-east-1a')).toBe(0.039);
    expect(provider.spot('m5.large', 'us-east-1b')).toBe(0.044);
    expect(provider.spot('m5.large', 'us-east-1c')).toBeUndefined();
    expect(provider.generation()).toBe(before + 1);
  });

  it('keeps previous prices and logs when a read fails', async () => {
    const { provider, state, lines } = setup();
    await provider.refresh();
    state.pricingFails = true;
    state.spotFails = true;
    const generation = provider.generation();
    await provider.refresh();
    expect(provider.onDemand('m5.large')).toBe(0.097);
    expect(provider.spot('m5.large', 'us-east-1a')).toBe(0.039);
    expect(provider.generation()).toBe(generation);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      'reading on-demand prices failed; keeping the previous ones',
      'reading spot prices failed; keeping the previous ones',
    ]);
  });

  it('refreshes every 12 h on the timers', async () => {
    const { provider, pricing, timers } = setup();
    provider.start();
    await timers.advance(0, () => provider.idle());
    expect(pricing.calls.length).toBe(2);
    await timers.advance(PricesRefreshMs - 1, () => provider.idle());
    expect(pricing.calls.length).toBe(2);
    await timers.advance(1, () => provider.idle());
    expect(pricing.calls.length).toBe(4);
    provider.stop();
    expect(timers.pending()).toBe(0);
  });

  it('falls back to the us-east-1 table, with a warning, in a region the table lacks', () => {
    const { provider, lines } = setup('eu-west-1');
    expect(provider.onDemand('m5.large')).toBe(0.096);
    expect(lines[0]?.level).toBe('warn');
  });
});

describe('staticOnDemandPrices', () => {
  it('covers large..8xlarge of every common family in us-east-1 and the GovCloud regions', () => {
    const families = ['m5', 'm6i', 'm7i', 'c6i', 'c7i', 'r5', 'r6i', 'm6g', 'c6g', 'r6g', 'm7g'];
    for (const region of ['us-east-1', 'us-gov-west-1']) {
      const { prices, exact } = staticOnDemandPrices(region);
      expect(exact, region).toBe(true);
      for (const family of families) {
        for (const size of ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge']) {
          expect(prices[`${family}.${size}`], `${region} ${family}.${size}`).toBeGreaterThan(0);
        }
      }
      for (const name of ['t3.large', 't3.2xlarge', 'c5.large', 'c5.4xlarge', 'c5.9xlarge', 'g4dn.xlarge']) {
        expect(prices[name], `${region} ${name}`).toBeGreaterThan(0);
      }
    }
  });

  it('sizes double in price within a family', () => {
    const { prices } = staticOnDemandPrices('us-east-1');
    expect(prices['m5.xlarge']).toBe(2 * (prices['m5.large'] ?? 0));
    expect(prices['m6g.8xlarge']).toBe(16 * (prices['m6g.large'] ?? 0));
  });

  it('a region the table lacks gets us-east-1 prices, marked inexact', () => {
    const west = staticOnDemandPrices('us-west-2');
    expect(west.exact).toBe(false);
    expect(west.prices['m5.large']).toBe(0.096);
  });
});
