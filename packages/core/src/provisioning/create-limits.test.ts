import { describe, expect, it } from 'vitest';
import { parseResourceList } from '../scheduling/resources/resource-list.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { limitsExceededAtCreate } from './create-limits.js';

const pool = aNodePool({ spec: { limits: { cpu: '10', nodes: '3' } } });
const claim = parseResourceList({ cpu: '4', memory: '16Gi' });

describe('limitsExceededAtCreate', () => {
  it('allows a claim that fits exactly what is left', () => {
    expect(limitsExceededAtCreate(pool, parseResourceList({ cpu: '6', nodes: '2' }), claim)).toBeUndefined();
  });

  it('names every limit the claim would break, with usage and the claim', () => {
    expect(limitsExceededAtCreate(pool, parseResourceList({ cpu: '6500m', nodes: '3' }), claim)).toBe(
      'NodePool default would exceed its limits (cpu: limit 10, in use 6500m, this NodeClaim up to 4; nodes: limit 3, in use 3, this NodeClaim up to 1)',
    );
  });

  it('a NodePool without limits never refuses; unlimited resources do not count', () => {
    expect(limitsExceededAtCreate(aNodePool(), parseResourceList({ cpu: '1000' }), claim)).toBeUndefined();
    expect(limitsExceededAtCreate(pool, undefined, parseResourceList({ memory: '1Ti' }))).toBeUndefined();
  });
});
