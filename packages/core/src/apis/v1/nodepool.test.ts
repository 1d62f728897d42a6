import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { exampleNodePool, withValue } from './examples.js';
import { nodePoolSchema } from './nodepool.js';

describe('NodePool defaults', () => {
  test('an unset disruption and expireAfter get exactly the upstream defaults', () => {
    const nodePool = nodePoolSchema.parse(exampleNodePool());
    expect(nodePool.spec.disruption).toEqual({
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ nodes: '10%' }],
    });
    expect(nodePool.spec.template.spec.expireAfter).toBe('720h');
    expect(nodePool.spec.template.spec.terminationGracePeriod).toBeUndefined();
    expect(nodePool.spec.weight).toBeUndefined();
  });

  test('a partial disruption keeps what is set and defaults the rest', () => {
    const input = withValue(exampleNodePool(), ['spec', 'disruption'], {
      consolidationPolicy: 'WhenEmpty',
      budgets: [{ schedule: '@daily', duration: '1h' }],
    });
    const nodePool = nodePoolSchema.parse(input);
    expect(nodePool.spec.disruption).toEqual({
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmpty',
      budgets: [{ nodes: '10%', schedule: '@daily', duration: '1h' }],
    });
  });

  test('defaulted budgets are fresh objects per parse', () => {
    const a = nodePoolSchema.parse(exampleNodePool());
    a.spec.disruption.budgets[0]!.nodes = '0';
    expect(nodePoolSchema.parse(exampleNodePool()).spec.disruption.budgets).toEqual([{ nodes: '10%' }]);
  });

  test('status.nodes defaults to 0 when a status is present', () => {
    const nodePool = nodePoolSchema.parse(
      withValue(exampleNodePool(), ['status'], { resources: { cpu: 4 } }),
    );
    expect(nodePool.status).toEqual({ nodes: 0, resources: { cpu: '4' } });
  });
});

describe('NodePool parsing', () => {
  test('limits become strings; nodes is an ordinary limit', () => {
    const nodePool = nodePoolSchema.parse(
      withValue(exampleNodePool(), ['spec', 'limits'], { cpu: 1000, memory: '1000Gi', nodes: 20 }),
    );
    expect(nodePool.spec.limits).toEqual({ cpu: '1000', memory: '1000Gi', nodes: '20' });
  });

  test('metadata fields nodewright does not model pass through', () => {
    const input = withValue(exampleNodePool(), ['metadata'], {
      name: 'default',
      uid: 'c0ffee',
      managedFields: [{ manager: 'kubectl' }],
      ownerReferences: [{ kind: 'Thing', name: 'x' }],
    });
    const nodePool = nodePoolSchema.parse(input);
    expect(nodePool.metadata).toMatchObject({
      uid: 'c0ffee',
      managedFields: [{ manager: 'kubectl' }],
      ownerReferences: [{ kind: 'Thing', name: 'x' }],
    });
  });

  test('generateName may stand in for name', () => {
    const input = withValue(exampleNodePool(), ['metadata'], { generateName: 'pool-' });
    expect(nodePoolSchema.safeParse(input).success).toBe(true);
  });

  test('all eight operators are accepted', () => {
    const requirements = [
      { key: 'a.io/a', operator: 'In', values: ['x'] },
      { key: 'a.io/b', operator: 'NotIn', values: ['x'] },
      { key: 'a.io/c', operator: 'Exists' },
      { key: 'a.io/d', operator: 'DoesNotExist' },
      { key: 'a.io/e', operator: 'Gt', values: ['1'] },
      { key: 'a.io/f', operator: 'Lt', values: ['1'] },
      { key: 'a.io/g', operator: 'Gte', values: ['1'] },
      { key: 'a.io/h', operator: 'Lte', values: ['1'] },
    ];
    const parsed = nodePoolSchema.parse(
      withValue(exampleNodePool(), ['spec', 'template', 'spec', 'requirements'], requirements),
    );
    expect(parsed.spec.template.spec.requirements.map((r) => r.operator)).toEqual([
      'In',
      'NotIn',
      'Exists',
      'DoesNotExist',
      'Gt',
      'Lt',
      'Gte',
      'Lte',
    ]);
  });

  test('the repository examples are valid NodePools', () => {
    const dir = new URL('../../../../../examples/nodepools/aws/', import.meta.url);
    const pools = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) =>
        parseAllDocuments(readFileSync(new URL(f, dir), 'utf8')).map((d) => d.toJS() as { kind?: string }),
      )
      .filter((doc) => doc.kind === 'NodePool');
    expect(pools.length).toBeGreaterThan(0);
    for (const pool of pools) {
      const result = nodePoolSchema.safeParse(pool);
      expect(result.error?.issues ?? [], JSON.stringify(pool)).toEqual([]);
    }
  });
});
