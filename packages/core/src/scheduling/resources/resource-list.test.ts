import { describe, expect, it } from 'vitest';
import { Quantity } from '../quantity/quantity.js';
import {
  addResources,
  describeResources,
  formatResourceList,
  isZeroResources,
  maxResources,
  parseResourceList,
  quantityOf,
  ResourceListError,
  resourcesEqual,
  scaleResources,
  subtractResources,
} from './resource-list.js';

const rl = (o: Record<string, string | number>) => parseResourceList(o);

describe('ResourceList', () => {
  it('parses a Kubernetes map with strings and numbers', () => {
    const list = rl({ cpu: '100m', memory: '1Gi', 'nvidia.com/gpu': 1, 'example.com/fraction': 0.5 });
    expect(list.get('cpu')?.nanos).toBe(100_000_000n);
    expect(list.get('memory')?.format).toBe('BinarySI');
    expect(list.get('nvidia.com/gpu')?.toString()).toBe('1');
    expect(list.get('example.com/fraction')?.toString()).toBe('500m');
    expect(parseResourceList(undefined).size).toBe(0);
    expect(
      parseResourceList(new Map([['cpu', '2']]))
        .get('cpu')
        ?.toString(),
    ).toBe('2');
  });

  it('names the resource whose value is not a quantity', () => {
    expect(() => rl({ cpu: '1', memory: '1.5.5Gi' })).toThrow(ResourceListError);
    expect(() => rl({ memory: '1.5.5Gi' })).toThrow(
      'resource "memory": "1.5.5Gi" is not a valid quantity: quantities must match the regular expression',
    );
  });

  it('formats back to canonical strings with sorted names', () => {
    const list = rl({ memory: '1.5Gi', cpu: '1000m', pods: '110' });
    expect(formatResourceList(list)).toEqual({ cpu: '1', memory: '1536Mi', pods: '110' });
    expect(Object.keys(formatResourceList(list))).toEqual(['cpu', 'memory', 'pods']);
    expect(describeResources(list)).toBe('{"cpu":"1","memory":"1536Mi","pods":"110"}');
  });

  it('adds per name, keeping formats', () => {
    const sum = addResources(
      rl({ cpu: '100m', memory: '1Gi' }),
      rl({ cpu: '0.9', 'nvidia.com/gpu': 1 }),
      rl({}),
    );
    expect(formatResourceList(sum)).toEqual({ cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' });
    expect(addResources().size).toBe(0);
  });

  it('subtracts only the names the left side holds', () => {
    const limits = rl({ cpu: '10', memory: '40Gi' });
    const usage = rl({ cpu: '2500m', memory: '8Gi', 'nvidia.com/gpu': 4 });
    expect(formatResourceList(subtractResources(limits, usage))).toEqual({ cpu: '7500m', memory: '32Gi' });
    expect(formatResourceList(subtractResources(rl({ cpu: '1' }), rl({ cpu: '2' })))).toEqual({ cpu: '-1' });
  });

  it('takes the maximum per name', () => {
    const m = maxResources(
      rl({ cpu: '1', memory: '1Gi' }),
      rl({ cpu: '1500m', pods: 1 }),
      rl({ memory: '512Mi' }),
    );
    expect(formatResourceList(m)).toEqual({ cpu: '1500m', memory: '1Gi', pods: '1' });
    expect(
      maxResources(rl({ cpu: '-1' }))
        .get('cpu')
        ?.toString(),
    ).toBe('-1');
  });

  it('scales, compares and reads missing names as zero', () => {
    expect(formatResourceList(scaleResources(rl({ cpu: '250m', memory: '1Gi' }), 4))).toEqual({
      cpu: '1',
      memory: '4Gi',
    });
    expect(quantityOf(rl({}), 'cpu').isZero()).toBe(true);
    expect(resourcesEqual(rl({ cpu: '1', memory: '0' }), rl({ cpu: '1000m' }))).toBe(true);
    expect(resourcesEqual(rl({ cpu: '1' }), rl({ cpu: '1', pods: 1 }))).toBe(false);
    expect(isZeroResources(rl({ cpu: '0', memory: '0Gi' }))).toBe(true);
    expect(isZeroResources(rl({ cpu: '1n' }))).toBe(false);
    expect(Quantity.parse('1').equals(quantityOf(rl({ cpu: '1' }), 'cpu'))).toBe(true);
  });
});
