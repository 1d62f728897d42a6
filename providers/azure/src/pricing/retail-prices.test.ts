import { describe, expect, it } from 'vitest';
import { pricesFromRows } from './retail-prices.js';

const row = (skuName: string, retailPrice: number, extra: Record<string, unknown> = {}) => ({
  armSkuName: 'Standard_D2s_v5',
  armRegionName: 'eastus',
  currencyCode: 'USD',
  type: 'Consumption',
  serviceName: 'Virtual Machines',
  productName: 'Virtual Machines Dsv5 Series',
  skuName,
  retailPrice,
  ...extra,
});

describe('pricesFromRows', () => {
  it('keeps Linux consumption and Spot rows; drops Windows, Low Priority, DevTest and other regions', () => {
    const prices = pricesFromRows(
      [
        row('D2s v5', 0.096),
        row('D2s v5', 0.2, { productName: 'Virtual Machines Dsv5 Series Windows' }),
        row('D2s v5 Low Priority', 0.02),
        row('D2s v5', 0.05, { type: 'DevTestConsumption' }),
        row('D2s v5 Spot', 0.0107),
        row('D2s v5 Spot', 0.03, { productName: 'Virtual Machines Dsv5 Series Windows' }),
        row('D2s v5', 0.11, { armRegionName: 'westus2' }),
      ],
      'eastus',
    );
    expect(Object.fromEntries(prices.onDemand)).toEqual({ Standard_D2s_v5: 0.096 });
    expect(Object.fromEntries(prices.spot)).toEqual({ Standard_D2s_v5: 0.0107 });
  });
});
