import { z } from 'zod';
import { type Pod, podSchema } from '../apis/kubernetes/pod.js';
import { type DeepPartial, mergeOverrides } from './merge.js';

export type PodInput = z.input<typeof podSchema>;

const SOME_TIME = '2026-01-01T00:00:00Z';

function basePod(): PodInput {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pod-1', namespace: 'default' },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.10',
          resources: { requests: { cpu: '100m', memory: '64Mi' } },
        },
      ],
    },
    status: { phase: 'Pending' },
  };
}

function parse(input: PodInput): Pod {
  const parsed = podSchema.safeParse(input);
  if (!parsed.success) throw new Error(`aPod: invalid Pod\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A valid pending Pod (`default/pod-1`, one container requesting 100m CPU and 64Mi), overrides merged in. */
export function aPod(overrides?: DeepPartial<PodInput>): Pod {
  return parse(mergeOverrides(basePod(), overrides));
}

/** A Pod bound to `nodeName`, Running and Ready (what a drain sees), overrides merged in. */
export function aRunningPod(nodeName: string, overrides?: DeepPartial<PodInput>): Pod {
  const base = mergeOverrides(basePod(), {
    spec: { nodeName },
    status: {
      phase: 'Running',
      startTime: SOME_TIME,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: SOME_TIME }],
    },
  } as DeepPartial<PodInput>);
  return parse(mergeOverrides(base, overrides));
}
