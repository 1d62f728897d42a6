import { describe, expect, it } from 'vitest';
import { labelCase, parseInstanceTypeName } from './labels.js';

describe('parseInstanceTypeName', () => {
  it.each([
    ['m5.large', { family: 'm5', size: 'large', category: 'm', generation: '5' }],
    ['m7i-flex.xlarge', { family: 'm7i-flex', size: 'xlarge', category: 'm', generation: '7' }],
    ['u-6tb1.metal', { family: 'u-6tb1', size: 'metal', category: 'u', generation: '1' }],
    ['c6gn.16xlarge', { family: 'c6gn', size: '16xlarge', category: 'c', generation: '6' }],
    ['mac2-m2pro.metal', { family: 'mac2-m2pro', size: 'metal', category: 'mac', generation: '2' }],
  ])('%s', (name, parts) => {
    expect(parseInstanceTypeName(name)).toEqual(parts);
  });

  it('leaves category and generation out when the name does not follow the scheme', () => {
    expect(parseInstanceTypeName('weird')).toEqual({ family: 'weird', size: '' });
  });
});

describe('labelCase', () => {
  it('lower-cases and dashes spaces', () => {
    expect(labelCase('Radeon Pro V520')).toBe('radeon-pro-v520');
  });
});
