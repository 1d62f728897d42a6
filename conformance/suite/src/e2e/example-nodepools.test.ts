import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readExampleNodePools } from './example-nodepools.js';

describe('readExampleNodePools', () => {
  it('finds the v1 NodePools of the examples, each named by file and object', async () => {
    const pools = await readExampleNodePools(fileURLToPath(new URL('../../../../', import.meta.url)));
    const ids = pools.map((p) => p.id);
    expect(ids).toContain('examples/nodepools/aws/general-purpose.yaml NodePool/general-purpose');
    expect(ids.some((id) => id.startsWith('examples/schedule/nodepools.yaml '))).toBe(true);
    expect(ids.some((id) => id.startsWith('examples/convert/'))).toBe(false);
    for (const pool of pools)
      expect(pool.manifest).toMatchObject({ apiVersion: 'karpenter.sh/v1', kind: 'NodePool' });
  });
});
