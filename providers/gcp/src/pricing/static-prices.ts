import type { ComponentPrices } from './components.js';

/**
 * Compute Engine's public list prices (USD per hour) for predefined VMs of the common families,
 * per vCPU and per GiB, and the L4 GPU: the fallback until the Cloud Billing Catalog answers,
 * and what `schedule --catalog gcp` prices with. us-central1 and us-east1 are in the same price
 * tier and priced alike. Spot prices change at most monthly; these are one month's, and the
 * catalog's replace them as soon as it is read.
 */
const Tier1: ComponentPrices = {
  families: {
    e2: { core: 0.021811, ram: 0.002923, spotCore: 0.006543, spotRam: 0.000877 },
    n2: { core: 0.031611, ram: 0.004237, spotCore: 0.007646, spotRam: 0.001025 },
    n2d: { core: 0.027502, ram: 0.003686, spotCore: 0.005796, spotRam: 0.000777 },
    n4: { core: 0.030394, ram: 0.004102, spotCore: 0.009119, spotRam: 0.001231 },
    c3: { core: 0.03398, ram: 0.00455, spotCore: 0.011893, spotRam: 0.001593 },
    c3d: { core: 0.029563, ram: 0.003959, spotCore: 0.007391, spotRam: 0.00099 },
    c4: { core: 0.03465, ram: 0.003938, spotCore: 0.012473, spotRam: 0.001418 },
    t2d: { core: 0.027502, ram: 0.003686, spotCore: 0.006512, spotRam: 0.000873 },
    t2a: { core: 0.0224, ram: 0.004, spotCore: 0.0067, spotRam: 0.0012 },
    g2: { core: 0.024988, ram: 0.002938, spotCore: 0.009995, spotRam: 0.001175 },
  },
  gpus: { 'nvidia-l4': { onDemand: 0.55987, spot: 0.2236 } },
};

/** The shipped component prices, per region. */
export const StaticComponentPrices: Readonly<Record<string, ComponentPrices>> = {
  'us-central1': Tier1,
  'us-east1': Tier1,
};

/** The regions the static table prices. */
export const StaticPriceRegions = Object.keys(StaticComponentPrices);
