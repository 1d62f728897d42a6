import { describe, expect, it } from 'vitest';
import { kindHostAddress } from './kind-network.js';

describe('kindHostAddress', () => {
  it('takes the IPv4 gateway of a dual-stack kind network, whichever comes first', () => {
    const config = [
      { Subnet: 'fc00:f853:ccd:e793::/64', Gateway: 'fc00:f853:ccd:e793::1' },
      { Subnet: '172.18.0.0/16', Gateway: '172.18.0.1' },
    ];
    expect(kindHostAddress(JSON.stringify(config))).toBe('172.18.0.1');
  });

  it('names what it read when there is no IPv4 gateway', () => {
    expect(() => kindHostAddress('[{"Subnet":"fc00::/64","Gateway":"fc00::1"}]')).toThrow(
      /no IPv4 gateway \(IPAM config \[\{"Subnet":"fc00::\/64"/,
    );
    expect(() => kindHostAddress('null')).toThrow(/no IPv4 gateway/);
  });

  it('refuses output that is not JSON, quoting it', () => {
    expect(() => kindHostAddress('Error: No such network: kind')).toThrow(
      /not JSON: Error: No such network: kind/,
    );
  });
});
