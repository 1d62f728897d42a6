import { describe, expect, it } from 'vitest';
import { parseBandwidth, parsePriceTable, parseVpcLimits } from './go-tables.js';

const Pricing = `package pricing

// generated at 2026-07-20T13:44:30Z for us-east-1

var InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{
\t// us-east-1
\t"us-east-1": {
\t\t// m5 family
\t\t"m5.large": 0.096000, "m5.metal": 4.608000,
\t\t// p5 family
\t\t"p5.48xlarge": 55.040000,
\t},
\t"us-gov-west-1": {
\t\t"m5.large": 0.121000,
\t},
}
`;

const VpcLimits = `package instancetype

var Limits = map[string]*VPCLimits{
\t"m5.large": {
\t\tInterface:               3,
\t\tIPv4PerInterface:        10,
\t\tIsTrunkingCompatible:    true,
\t\tBranchInterface:         9,
\t\tDefaultNetworkCardIndex: 0,
\t\tNetworkCards: []NetworkCard{
\t\t\t{
\t\t\t\tMaximumNetworkInterfaces: 3,
\t\t\t\tNetworkCardIndex:         0,
\t\t\t},
\t\t},
\t\tHypervisor:  "nitro",
\t\tIsBareMetal: false,
\t},
\t"p5.48xlarge": {
\t\tInterface:               64,
\t\tIPv4PerInterface:        50,
\t\tDefaultNetworkCardIndex: 1,
\t\tNetworkCards: []NetworkCard{
\t\t\t{
\t\t\t\tMaximumNetworkInterfaces: 1,
\t\t\t\tNetworkCardIndex:         0,
\t\t\t},
\t\t\t{
\t\t\t\tMaximumNetworkInterfaces: 2,
\t\t\t\tNetworkCardIndex:         1,
\t\t\t},
\t\t},
\t\tHypervisor:  "",
\t\tIsBareMetal: true,
\t},
}
`;

describe('parsePriceTable', () => {
  it('reads every region block and the generated-at stamp', () => {
    const table = parsePriceTable(Pricing);
    expect(table.generatedAt).toBe('2026-07-20T13:44:30Z');
    expect([...table.regions.keys()]).toEqual(['us-east-1', 'us-gov-west-1']);
    expect(Object.fromEntries(table.regions.get('us-east-1')!)).toEqual({
      'm5.large': 0.096,
      'm5.metal': 4.608,
      'p5.48xlarge': 55.04,
    });
    expect(table.regions.get('us-gov-west-1')?.get('m5.large')).toBe(0.121);
  });

  it('refuses a file without region blocks, naming it', () => {
    expect(() => parsePriceTable('package pricing\n', 'x.go')).toThrow(
      'x.go: no "region": { "type": price } blocks',
    );
  });
});

describe('parseVpcLimits', () => {
  it('counts the ENIs of the default network card', () => {
    const limits = parseVpcLimits(VpcLimits);
    expect(limits.get('m5.large')).toEqual({
      maxENIs: 3,
      ipv4PerENI: 10,
      hypervisor: 'nitro',
      bareMetal: false,
    });
    expect(limits.get('p5.48xlarge')).toEqual({
      maxENIs: 2,
      ipv4PerENI: 50,
      hypervisor: '',
      bareMetal: true,
    });
  });

  it('names a type whose block lacks its IPv4 count', () => {
    const broken = VpcLimits.replace('IPv4PerInterface:        10,', '');
    expect(() => parseVpcLimits(broken, 'v.go')).toThrow('v.go: m5.large: no IPv4PerInterface');
  });
});

describe('parseBandwidth', () => {
  it('reads the megabits and skips the vaguely described types', () => {
    const text = `var (
\tInstanceTypeBandwidthMegabits = map[string]int64{
\t\t// c1.medium has vague bandwidth information, bandwidth is Moderate
\t\t"m5.large":             750,
\t\t"p5.48xlarge":          3200000,
\t}
)`;
    expect(Object.fromEntries(parseBandwidth(text))).toEqual({ 'm5.large': 750, 'p5.48xlarge': 3200000 });
    expect(() => parseBandwidth('var x = 1', 'b.go')).toThrow('b.go: no "type": megabits entries');
  });
});
