/** USD per hour of one Linux VM, pay-as-you-go and spot, in one region. */
export interface StaticPrice {
  readonly onDemand: number;
  /** Absent where the size has no spot offering (B series). */
  readonly spot?: number;
}

/**
 * Linux pay-as-you-go list prices (USD/hour) from Azure's public price sheet; eastus and
 * westus2 publish the same figures for these sizes. Approximations, as the README's table says:
 * the Dsv6 on-demand figures, and every spot figure (spot prices move daily; the NC ones are 10 %
 * of on-demand). Good for planning offline; the Retail Prices API replaces them live.
 */
const EASTUS: Readonly<Record<string, StaticPrice>> = {
  Standard_D2s_v5: { onDemand: 0.096, spot: 0.0107 },
  Standard_D4s_v5: { onDemand: 0.192, spot: 0.0214 },
  Standard_D8s_v5: { onDemand: 0.384, spot: 0.0428 },
  Standard_D16s_v5: { onDemand: 0.768, spot: 0.0856 },
  Standard_D32s_v5: { onDemand: 1.536, spot: 0.1712 },
  Standard_D2as_v5: { onDemand: 0.086, spot: 0.0095 },
  Standard_D4as_v5: { onDemand: 0.172, spot: 0.019 },
  Standard_D8as_v5: { onDemand: 0.344, spot: 0.038 },
  Standard_D16as_v5: { onDemand: 0.688, spot: 0.076 },
  Standard_D2ps_v5: { onDemand: 0.077, spot: 0.0086 },
  Standard_D4ps_v5: { onDemand: 0.154, spot: 0.0171 },
  Standard_D8ps_v5: { onDemand: 0.308, spot: 0.0342 },
  Standard_D2s_v6: { onDemand: 0.101, spot: 0.0116 },
  Standard_D4s_v6: { onDemand: 0.202, spot: 0.0232 },
  Standard_D8s_v6: { onDemand: 0.404, spot: 0.0464 },
  Standard_E2s_v5: { onDemand: 0.126, spot: 0.0139 },
  Standard_E4s_v5: { onDemand: 0.252, spot: 0.0278 },
  Standard_E8s_v5: { onDemand: 0.504, spot: 0.0556 },
  Standard_E16s_v5: { onDemand: 1.008, spot: 0.1112 },
  Standard_E2as_v5: { onDemand: 0.113, spot: 0.0124 },
  Standard_E4as_v5: { onDemand: 0.226, spot: 0.0248 },
  Standard_E8as_v5: { onDemand: 0.452, spot: 0.0497 },
  Standard_F2s_v2: { onDemand: 0.0846, spot: 0.0109 },
  Standard_F4s_v2: { onDemand: 0.169, spot: 0.0218 },
  Standard_F8s_v2: { onDemand: 0.338, spot: 0.0436 },
  Standard_F16s_v2: { onDemand: 0.677, spot: 0.0872 },
  Standard_B2s: { onDemand: 0.0416 },
  Standard_B2ms: { onDemand: 0.0832 },
  Standard_B4ms: { onDemand: 0.166 },
  Standard_L8s_v3: { onDemand: 0.624, spot: 0.0686 },
  Standard_L16s_v3: { onDemand: 1.248, spot: 0.1373 },
  Standard_NC4as_T4_v3: { onDemand: 0.526, spot: 0.0526 },
  Standard_NC64as_T4_v3: { onDemand: 4.352, spot: 0.4352 },
  Standard_NC24ads_A100_v4: { onDemand: 3.673, spot: 0.3673 },
};

/** The shipped price table by region, then VM size. */
export const STATIC_PRICES: Readonly<Record<string, Readonly<Record<string, StaticPrice>>>> = {
  eastus: EASTUS,
  westus2: EASTUS,
};
