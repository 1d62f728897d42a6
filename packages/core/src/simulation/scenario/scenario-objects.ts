import { Annotations } from '../../apis/labels.js';
import { RunForAnnotation } from '../kube/kubelet/kubelet-simulator.js';
import type { ScenarioDeployment, ScenarioJob, ScenarioPodTemplate } from './scenario-schema.js';

/** The label every scenario workload's pods carry: the workload's name. */
export const WorkloadLabel = 'app.kubernetes.io/name';

type Json = Record<string, unknown>;

function podSpec(name: string, pod: ScenarioPodTemplate, extra: Json): Json {
  const selector = { matchLabels: { [WorkloadLabel]: name } };
  return {
    ...extra,
    containers: [{ name: 'main', image: `sim/${name}`, resources: { requests: { ...pod.requests } } }],
    ...(pod.nodeSelector === undefined ? {} : { nodeSelector: { ...pod.nodeSelector } }),
    ...(pod.tolerations === undefined ? {} : { tolerations: pod.tolerations.map((t) => ({ ...t })) }),
    ...(pod.priorityClassName === undefined ? {} : { priorityClassName: pod.priorityClassName }),
    ...(pod.topologySpread === undefined
      ? {}
      : { topologySpreadConstraints: pod.topologySpread.map((s) => ({ ...s, labelSelector: selector })) }),
    ...(pod.antiAffinity === undefined
      ? {}
      : {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { topologyKey: pod.antiAffinity, labelSelector: selector },
              ],
            },
          },
        }),
  };
}

function template(
  name: string,
  pod: ScenarioPodTemplate,
  annotations: Record<string, string>,
  spec: Json,
): Json {
  const all = {
    ...annotations,
    ...(pod.doNotDisrupt === true ? { [Annotations.DoNotDisrupt]: 'true' } : {}),
  };
  return {
    metadata: {
      labels: { ...(pod.labels ?? {}), [WorkloadLabel]: name },
      ...(Object.keys(all).length === 0 ? {} : { annotations: all }),
    },
    spec: podSpec(name, pod, spec),
  };
}

/** The apps/v1 Deployment a scenario deployment runs, at `replicas`. */
export function deploymentObject(d: ScenarioDeployment, replicas: number): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: d.name, namespace: d.namespace },
    spec: {
      replicas,
      selector: { matchLabels: { [WorkloadLabel]: d.name } },
      template: template(d.name, d.pod, {}, { terminationGracePeriodSeconds: 30 }),
    },
  };
}

/** The policy/v1 PodDisruptionBudget of a scenario deployment, if it has one. */
export function pdbObject(d: ScenarioDeployment): Json | undefined {
  if (d.pdb === undefined) return undefined;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: d.name, namespace: d.namespace },
    spec: { ...d.pdb, selector: { matchLabels: { [WorkloadLabel]: d.name } } },
  };
}

function durationText(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** The batch/v1 Job of a scenario job: `count` completions of pods that run for `runFor`. */
export function jobObject(j: ScenarioJob): Json {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: j.name, namespace: j.namespace },
    spec: {
      completions: j.count,
      parallelism: j.parallelism ?? j.count,
      backoffLimit: 6,
      template: template(
        j.name,
        j.pod,
        { [RunForAnnotation]: durationText(j.runFor) },
        { restartPolicy: 'Never', terminationGracePeriodSeconds: 30 },
      ),
    },
  };
}
