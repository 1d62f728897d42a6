/** A PriceList item shaped as the Pricing API returns it (trimmed to the fields read). */
export function priceListItem(instanceType: string, usd: string): string {
  return JSON.stringify({
    product: { productFamily: 'Compute Instance', attributes: { instanceType, operatingSystem: 'Linux' } },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        'SKU.JRTCKXETXF': {
          priceDimensions: {
            'SKU.JRTCKXETXF.6YS6EN2CT7': { unit: 'Hrs', pricePerUnit: { USD: usd } },
          },
        },
      },
    },
  });
}
