import { describe, expect, it } from 'vitest';
import { priceListItem } from './fixtures.js';
import { parsePriceListItem } from './price-list.js';

describe('parsePriceListItem', () => {
  it('reads the instance type and the hourly USD price', () => {
    expect(parsePriceListItem(priceListItem('m5.large', '0.0960000000'))).toEqual({
      entry: { instanceType: 'm5.large', price: 0.096 },
    });
  });
  it('skips zero prices, missing types and malformed JSON with a reason', () => {
    expect(parsePriceListItem(priceListItem('m5.large', '0.0000000000'))).toEqual({
      skipped: 'm5.large: no non-zero USD price in terms.OnDemand',
    });
    expect(parsePriceListItem(JSON.stringify({ product: {} }))).toEqual({
      skipped: 'PriceList item without product.attributes.instanceType',
    });
    expect(parsePriceListItem('{')).toHaveProperty('skipped');
    const block = JSON.parse(priceListItem('p5.48xlarge', '31.4640000000'));
    block.product.attributes.marketoption = 'CapacityBlock';
    expect(parsePriceListItem(JSON.stringify(block))).toEqual({
      skipped: 'p5.48xlarge: marketoption CapacityBlock is not OnDemand',
    });
    const onDemand = JSON.parse(priceListItem('m5.large', '0.0960000000'));
    onDemand.product.attributes.marketoption = 'OnDemand';
    expect(parsePriceListItem(JSON.stringify(onDemand))).toEqual({
      entry: { instanceType: 'm5.large', price: 0.096 },
    });
  });
});
