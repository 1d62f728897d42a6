import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KIND_NODE_TAINT } from '@nodewright/conformance/cluster';
import type { ControllerLauncher, ControllerLauncherFactory } from '@nodewright/conformance/suite';
import { Deployments, Secrets, type UntypedObject } from '@nodewright/core/kube';
import { ensureControllerImage } from './controller-image.js';
import { controllerPod, type DeploymentTemplate } from './controller-pod.js';
import {
  type ChartProvider,
  ChartProviders,
  Charts,
  controllerInstallArgs,
  ensureHelm,
  ensureKind,
  runCommand,
  runHelm,
} from './helm.js';
import { credentialsSecret, type MockCloudRelease, mockCloudReleaseValues } from './mock-cloud-release.js';
import { PodController } from './pod-controller.js';

/** The release and namespace the suite installs the charts as. */
const Release = 'nodewright';

/** Options of the in-cluster launcher. */
export interface InClusterLauncherOptions {
  /** The provider settings that are secrets (its plug-in's `secretSettings`): kept in a Secret. */
  readonly secretSettings?: readonly string[];
  /** More top-level chart values (e.g. `extraVolumes` for a mock's CA). */
  readonly extraValues?: Readonly<Record<string, unknown>>;
}

/**
 * Chart values for the suite's release on top of mockCloudReleaseValues: no replicas of the
 * Deployment's own (the launcher makes each replica a Pod of its template, see controllerPod),
 * tolerating the kind node's taint (the suite keeps workloads off that node; the controller
 * belongs there), and no pod anti-affinity (both replicas share kind's one node). Pure.
 */
export function suiteReleaseValues(release: MockCloudRelease): Record<string, unknown> {
  const values = mockCloudReleaseValues(release);
  return {
    ...values,
    replicas: 0,
    // Helm replaces a list value whole: the chart's default toleration is repeated here.
    tolerations: [
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: KIND_NODE_TAINT.key, operator: 'Exists', effect: KIND_NODE_TAINT.effect },
    ],
    affinity: { podAntiAffinity: null },
  };
}

/**
 * The controller in the cluster, as users install it: on the kind target (the environment
 * started a kind cluster), the controller image is built (or found) and loaded into the node,
 * the CRD chart and the chart are installed with helm into namespace `nodewright` with the
 * provider's values file, and each replica the suite starts is a Pod of the installed
 * Deployment's template under the chart's ServiceAccount (PodController). Its Lease is in the
 * release namespace, as the chart's Role allows. The release stays until the cluster goes.
 */
export function inClusterLauncher(options: InClusterLauncherOptions = {}): ControllerLauncherFactory {
  return async ({ env, provider, settings, leaderElectionId }): Promise<ControllerLauncher> => {
    const kindName = env.kindName;
    if (kindName === undefined) {
      throw new Error(
        'the in-cluster launcher needs the kind target (NODEWRIGHT_CLUSTER=kind, clusterTarget: kind)',
      );
    }
    if (!(ChartProviders as readonly string[]).includes(provider)) {
      throw new Error(
        `no values file for provider ${provider}: the chart ships ${ChartProviders.join(', ')}`,
      );
    }
    const work = join(env.workDir, 'in-cluster');
    await mkdir(work, { recursive: true });
    const image = await ensureControllerImage();
    const load = await runCommand(await ensureKind(), ['load', 'docker-image', '--name', kindName, image]);
    if (load.code !== 0) {
      throw new Error(`kind load docker-image failed (exit ${load.code}): ${load.stderr.slice(-1500)}`);
    }

    const helm = await ensureHelm();
    const helmRun = (args: string[]) =>
      runHelm(helm, [...args, '--kubeconfig', env.kubeconfigPath], join(work, 'helm')).then((r) => {
        if (r.code !== 0)
          throw new Error(`helm ${args.slice(0, 2).join(' ')} failed: ${r.stderr.slice(-1500)}`);
      });
    await helmRun([
      'upgrade',
      '--install',
      'nodewright-crd',
      Charts.crd,
      '--namespace',
      Release,
      '--create-namespace',
    ]);
    const release: MockCloudRelease = {
      image,
      settings,
      secretSettings: options.secretSettings ?? [],
      secretName: `${provider}-credentials`,
      clusterName: kindName,
      leaderElectionId,
      ...(options.extraValues === undefined ? {} : { extraValues: options.extraValues }),
    };
    if (release.secretSettings.some((key) => settings[key] !== undefined)) {
      await env.cluster.apply(Secrets, credentialsSecret(release, Release) as unknown as UntypedObject, {
        fieldManager: 'nodewright-e2e',
        force: true,
      });
    }
    const valuesFile = join(work, 'values.json');
    await writeFile(valuesFile, JSON.stringify(suiteReleaseValues(release)));
    await helmRun(controllerInstallArgs(Release, provider as ChartProvider, valuesFile));
    const deployment = (await env.cluster.get<UntypedObject>(Deployments, {
      namespace: Release,
      name: Release,
    })) as unknown as DeploymentTemplate;
    const started: PodController[] = [];
    return {
      leaseNamespace: Release,
      async start(identity) {
        const controller = await PodController.start({
          cluster: env.cluster,
          connection: env.connection,
          pod: controllerPod(deployment, identity, Release),
        });
        started.push(controller);
        return controller;
      },
      async close() {
        await Promise.all(started.map((c) => c.stop()));
      },
    };
  };
}
