import type { StaticPrice } from '@nodewright/azure';

/** One item of the Retail Prices API (`{Items, NextPageLink}`), in its published shape. */
export interface RetailPriceItem {
  readonly currencyCode: 'USD';
  readonly tierMinimumUnits: number;
  readonly retailPrice: number;
  readonly unitPrice: number;
  readonly armRegionName: string;
  readonly location: string;
  readonly effectiveStartDate: string;
  readonly meterId: string;
  readonly meterName: string;
  readonly productId: string;
  readonly skuId: string;
  readonly productName: string;
  readonly skuName: string;
  readonly serviceName: 'Virtual Machines';
  readonly serviceId: string;
  readonly serviceFamily: 'Compute';
  readonly unitOfMeasure: '1 Hour';
  readonly type: 'Consumption' | 'DevTestConsumption' | 'Reservation';
  readonly isPrimaryMeterRegion: boolean;
  readonly armSkuName: string;
}

const DISPLAY: Record<string, string> = { eastus: 'US East', westus2: 'US West 2' };

/**
 * The rows the Retail Prices API has for a size: Linux Consumption (regular and Spot), and the
 * rows a client must drop (Windows, Low Priority, DevTest), priced so a client that keeps them
 * gets a visibly wrong answer.
 */
export function retailPriceItems(size: string, region: string, price: StaticPrice): RetailPriceItem[] {
  const short = size.replace(/^Standard_/, '').replace(/_/g, ' ');
  const series = short.replace(/^[A-Z]+[0-9]+/, '').trim() || short;
  const base = {
    currencyCode: 'USD' as const,
    tierMinimumUnits: 0,
    armRegionName: region,
    location: DISPLAY[region] ?? region,
    effectiveStartDate: '2024-08-01T00:00:00Z',
    serviceName: 'Virtual Machines' as const,
    serviceId: 'DZH313Z7MMC8',
    serviceFamily: 'Compute' as const,
    unitOfMeasure: '1 Hour' as const,
    isPrimaryMeterRegion: true,
    armSkuName: size,
  };
  const row = (
    skuName: string,
    productSuffix: string,
    retailPrice: number,
    type: RetailPriceItem['type'],
    n: number,
  ): RetailPriceItem => ({
    ...base,
    retailPrice,
    unitPrice: retailPrice,
    meterId: `${size}-${region}-${n}`,
    meterName: skuName,
    productId: `DZH318Z0${series.replace(/\W/g, '').toUpperCase()}`,
    skuId: `${size}/${region}/${n}`,
    productName: `Virtual Machines ${series} Series${productSuffix}`,
    skuName,
    type,
  });
  const rows = [
    row(short, '', price.onDemand, 'Consumption', 1),
    row(short, ' Windows', round(price.onDemand * 1.8), 'Consumption', 2),
    row(`${short} Low Priority`, '', round(price.onDemand * 0.2), 'Consumption', 3),
    row(short, '', round(price.onDemand * 0.6), 'DevTestConsumption', 4),
  ];
  if (price.spot !== undefined) {
    rows.push(row(`${short} Spot`, '', price.spot, 'Consumption', 5));
    rows.push(row(`${short} Spot`, ' Windows', round(price.spot * 1.8), 'Consumption', 6));
  }
  return rows;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
