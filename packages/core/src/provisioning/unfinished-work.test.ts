import { describe, expect, it } from 'vitest';
import { NodePools, Pods } from '../kube/resource-types.js';
import { MetricNames } from '../metrics/names.js';
import { provisioningControllers } from '../operator/controllers.js';
import { PodBinder } from '../simulation/kube/binder/pod-binder.js';
import { ClusterState } from '../state/cluster-state.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { lifecycleDependencies } from '../testing/lifecycle-env.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod } from '../testing/pod-builder.js';
import { type SolveFunction, solveWithinBudget } from './provisioner.js';

describe('karpenter_scheduler_unfinished_work_seconds', () => {
  it('shows how long the solve under way has run, and 0 once it has ended', async () => {
    const env = new ControllerEnv();
    // kube-scheduler's part: pods are marked Unschedulable before the provisioner takes them.
    env.cluster.use(new PodBinder({ events: false }));
    const unfinished = async () => {
      const values =
        (await env.registry.getSingleMetric(MetricNames.SchedulerUnfinishedWork)?.get())?.values ?? [];
      return Object.fromEntries(values.map((v) => [String(v.labels.controller), v.value]));
    };
    // The provisioner's own clock (`elapsed`, seconds): each solve takes 7 s of it.
    let now = 100;
    let during: Record<string, number> | undefined;
    const slow: SolveFunction = async (input, budget) => {
      now += 7;
      during = await unfinished();
      return solveWithinBudget(input, budget);
    };
    const { registry, clock } = env;
    const deps = { ...env, lifecycleMetrics: lifecycleDependencies(env).metrics };
    const state = new ClusterState({ clock, registry });
    const provisioner = { solve: slow, elapsed: () => now, sliceMs: Number.POSITIVE_INFINITY };
    await env.start(...provisioningControllers({ ...deps, state }, { provisioner }));
    expect(await unfinished()).toEqual({ provisioner: 0 });

    await env.cluster.create(NodePools, aNodePool());
    await env.cluster.create(Pods, aPod({ metadata: { name: 'web' } }));
    await env.advance(1_000);
    expect(during).toEqual({ provisioner: 7 });
    expect(await unfinished()).toEqual({ provisioner: 0 });
    // Finished solves are in the duration histogram, each with the same 7 s.
    const duration = await registry.getSingleMetric(MetricNames.SchedulerSchedulingDuration)?.get();
    const total = (suffix: string) =>
      duration?.values.find((v) => 'metricName' in v && String(v.metricName).endsWith(suffix))?.value ?? 0;
    expect(total('_count')).toBeGreaterThan(0);
    expect(total('_sum')).toBe(7 * total('_count'));
    await env.stop();
  });
});
