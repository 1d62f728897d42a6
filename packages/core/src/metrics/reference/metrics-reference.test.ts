import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLogger, Operator } from '@nodewright/core/operator';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../clock/clock.js';
import { SystemTimers } from '../../clock/timers.js';
import { instanceLaunchMetrics } from '../../cloudprovider/instance-launch-metrics.js';
import { interruptionMessageMetrics } from '../../cloudprovider/interruption-metrics.js';
import { clusterWithEstablishedCrds, fakeProviderPlugin } from '../../testing/operator-fixtures.js';
import { describeRegistry, metricsReferenceMarkdown } from './metrics-reference.js';

// docs/metrics.md is generated from a running operator's registry: a metric added, renamed or
// relabelled in the code fails this test until the reference says so (UPDATE_METRICS_DOC=1).
const root = resolve(import.meta.dirname, '../../../../..');
const doc = join(root, 'docs', 'metrics.md');

const plugin = fakeProviderPlugin();

describe('docs/metrics.md', () => {
  it('lists every metric the controller exports, with its type and labels', async () => {
    const cluster = clusterWithEstablishedCrds();
    const operator = new Operator({
      environment: {
        clock: new SystemClock(),
        timers: new SystemTimers(),
        logger: createLogger({ level: 'silent' }),
      },
      plugin,
      clusterName: 'reference',
      settings: {},
      cluster,
      build: { version: '1.2.3', nodeVersion: '24.0.0' },
      metricsPort: 0,
      healthPort: 0,
      host: '127.0.0.1',
    });
    try {
      // Without leader election this replica leads at once: every controller is built.
      await operator.start();
      // The fake provider reads no interruption queue and launches nothing itself; the AWS
      // provider registers these families (from core), and the reference lists them too.
      interruptionMessageMetrics(operator.registry);
      instanceLaunchMetrics(operator.registry);
      const metrics = describeRegistry(operator.registry);
      expect(metrics.length).toBeGreaterThan(30);
      const build = await operator.registry.getSingleMetric('karpenter_build_info')?.get();
      expect(build?.values).toEqual([{ value: 1, labels: { version: '1.2.3', nodeversion: '24.0.0' } }]);
      const expected = metricsReferenceMarkdown(metrics);
      if (process.env.UPDATE_METRICS_DOC === '1') writeFileSync(doc, expected);
      expect(readFileSync(doc, 'utf8'), 'docs/metrics.md is stale: run with UPDATE_METRICS_DOC=1').toBe(
        expected,
      );
    } finally {
      await operator.stop();
    }
  });
});
