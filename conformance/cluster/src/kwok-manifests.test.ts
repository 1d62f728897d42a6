import { describe, expect, it } from 'vitest';
import { objectPath } from './apply.js';
import { type ControlPlaneLayout, componentPlans } from './components.js';
import { KIND_NODE_TAINT } from './kind-cluster.js';
import { type KubeManifest, KWOK_IMAGE, KWOK_PORT, kwokInClusterManifests } from './kwok-manifests.js';
import { DEFAULT_STAGE_OPTIONS, kwokStages } from './kwok-stages.js';

const stages = kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion: 'v1.36.5' });
const manifests = kwokInClusterManifests({ stages, tolerateTaintKeys: [KIND_NODE_TAINT.key] });

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
interface Container {
  name: string;
  image: string;
  args: string[];
  env: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  readinessProbe: { httpGet: { path: string; port: number } };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: {
    serviceAccountName: string;
    priorityClassName?: string;
    tolerations: { key: string; operator: string }[];
    containers: Container[];
  };
}

const byKind = (kind: string): KubeManifest => {
  const found = manifests.rbac.find((m) => m.kind === kind);
  if (!found) throw new Error(`no ${kind}`);
  return found;
};
const deploymentSpec = manifests.deployment.spec as {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: PodTemplate;
};
const container = deploymentSpec.template.spec.containers[0]!;

// The binary cluster's kwok command line, from the same function startCluster uses.
const binaryKwokArgs = (): string[] => {
  const layout: ControlPlaneLayout = {
    binDir: '/b',
    etcdDataDir: '/e',
    caCertFile: '/c',
    adminCertFile: '/a',
    adminKeyFile: '/k',
    kubeconfigFile: '/kc',
    kwokConfigFile: '/kw',
    ports: { etcdClient: 1, etcdPeer: 2, apiServer: 3, controllerManager: 4, scheduler: 5, kwok: 6 },
    serviceClusterIpRange: '10.96.0.0/12',
    podCidr: '10.0.0.0/16',
    nodeLeaseDurationSeconds: 40,
    nodeMonitorGracePeriodSeconds: 40,
    kwokManages: 'annotated',
    extraArgs: {},
  };
  return componentPlans(layout).find((p) => p.name === 'kwok')!.args;
};

describe('kwokInClusterManifests', () => {
  it('selects the same Nodes, pod CIDR and lease as the binary cluster', () => {
    const binary = binaryKwokArgs();
    const flag = (args: string[], name: string): string | undefined =>
      args.find((a) => a.startsWith(`${name}=`));
    for (const name of [
      '--manage-nodes-with-annotation-selector',
      '--cidr',
      '--node-lease-duration-seconds',
    ]) {
      expect(flag(container.args, name), name).toBeDefined();
      expect(flag(container.args, name)).toBe(flag(binary, name));
    }
    expect(container.args).toContain('--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake');
    expect(container.args.some((a) => a.startsWith('--manage-all-nodes'))).toBe(false);
  });

  it('plays exactly the binary cluster stages, from Stage objects rather than a config file', () => {
    expect(container.args).toContain('--enable-crds=Stage');
    expect(container.args.some((a) => a.startsWith('--config'))).toBe(false);
    expect(manifests.stages.map((s) => s.metadata.name)).toEqual(stages.map((s) => s.metadata.name));
    manifests.stages.forEach((stage, i) => {
      expect(stage.spec).toEqual(stages[i]!.spec);
      expect(stage.apiVersion).toBe(stages[i]!.apiVersion);
    });
  });

  it('defines the Stage CRD the Stage objects belong to, cluster-scoped', () => {
    const spec = manifests.crd.spec as {
      group: string;
      scope: string;
      names: { kind: string; plural: string };
      versions: { name: string; served: boolean; storage: boolean }[];
    };
    expect(manifests.crd.metadata.name).toBe(`${spec.names.plural}.${spec.group}`);
    expect(spec.scope).toBe('Cluster');
    for (const stage of manifests.stages) {
      const [group, version] = stage.apiVersion.split('/');
      expect(group).toBe(spec.group);
      expect(stage.kind).toBe(spec.names.kind);
      expect(spec.versions.find((v) => v.name === version)).toMatchObject({ served: true, storage: true });
    }
  });

  it('grants kwok every verb it needs on nodes, pods, their status, leases and events', () => {
    const rules = byKind('ClusterRole').rules as Rule[];
    const allowed = (group: string, resource: string, verb: string): boolean =>
      rules.some(
        (r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
      );
    const needs: [string, string, string[]][] = [
      ['', 'nodes', ['get', 'list', 'watch']],
      ['', 'nodes/status', ['patch', 'update']],
      ['', 'pods', ['get', 'list', 'watch', 'delete']],
      ['', 'pods/status', ['patch', 'update']],
      ['coordination.k8s.io', 'leases', ['create', 'get', 'list', 'watch', 'update', 'patch']],
      ['', 'events', ['create', 'patch', 'update']],
      ['kwok.x-k8s.io', 'stages', ['get', 'list', 'watch']],
    ];
    for (const [group, resource, verbs] of needs) {
      for (const verb of verbs) expect(allowed(group, resource, verb), `${verb} ${resource}`).toBe(true);
    }
    // It simulates status only: never rewrites or deletes Nodes themselves.
    expect(allowed('', 'nodes', 'update')).toBe(false);
    expect(allowed('', 'nodes', 'delete')).toBe(false);
  });

  it('binds the role to the ServiceAccount the Deployment runs as', () => {
    const sa = byKind('ServiceAccount');
    const binding = byKind('ClusterRoleBinding') as KubeManifest & {
      roleRef: { kind: string; name: string };
      subjects: { kind: string; name: string; namespace: string }[];
    };
    expect(binding.roleRef).toMatchObject({ kind: 'ClusterRole', name: byKind('ClusterRole').metadata.name });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: sa.metadata.name, namespace: sa.metadata.namespace },
    ]);
    expect(deploymentSpec.template.spec.serviceAccountName).toBe(sa.metadata.name);
    expect(manifests.deployment.metadata.namespace).toBe(sa.metadata.namespace);
    expect(sa.metadata.namespace).toBe('kube-system');
  });

  it('runs one kwok v0.8.0 replica that tolerates the kind node taint and is probed on its server port', () => {
    expect(deploymentSpec.replicas).toBe(1);
    expect(container.image).toBe(KWOK_IMAGE);
    expect(KWOK_IMAGE).toBe('registry.k8s.io/kwok/kwok:v0.8.0');
    const labels = deploymentSpec.template.metadata.labels;
    for (const [key, value] of Object.entries(deploymentSpec.selector.matchLabels))
      expect(labels[key]).toBe(value);
    expect(deploymentSpec.template.spec.tolerations).toEqual([
      { key: KIND_NODE_TAINT.key, operator: 'Exists' },
    ]);
    expect(container.args).toContain(`--server-address=0.0.0.0:${KWOK_PORT}`);
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/healthz', port: KWOK_PORT });
    // --node-ip=$(POD_IP) is expanded by the kubelet only when the variable is defined.
    expect(container.args).toContain('--node-ip=$(POD_IP)');
    expect(container.env).toContainEqual({
      name: 'POD_IP',
      valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
    });
  });

  it('honours image, namespace, CIDR and lease overrides', () => {
    const custom = kwokInClusterManifests({
      stages,
      image: 'mirror.local/kwok:v0.8.0',
      namespace: 'kwok',
      podCidr: '10.9.0.0/16',
      nodeLeaseDurationSeconds: 60,
    });
    const c = (custom.deployment.spec as { template: PodTemplate }).template.spec.containers[0]!;
    expect(c.image).toBe('mirror.local/kwok:v0.8.0');
    expect(c.args).toContain('--cidr=10.9.0.0/16');
    expect(c.args).toContain('--node-lease-duration-seconds=60');
    expect(custom.deployment.metadata.namespace).toBe('kwok');
    expect(custom.rbac.find((m) => m.kind === 'ServiceAccount')!.metadata.namespace).toBe('kwok');
    expect((custom.deployment.spec as { template: PodTemplate }).template.spec.tolerations).toEqual([]);
    // system-cluster-critical is admitted in kube-system only.
    expect(deploymentSpec.template.spec.priorityClassName).toBe('system-cluster-critical');
    expect(
      (custom.deployment.spec as { template: PodTemplate }).template.spec.priorityClassName,
    ).toBeUndefined();
  });
});

describe('objectPath', () => {
  it('routes every kwok manifest to its REST path', () => {
    const all = [manifests.crd, ...manifests.rbac, manifests.stages[0]!, manifests.deployment];
    expect(all.map(objectPath)).toEqual([
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/stages.kwok.x-k8s.io',
      '/api/v1/namespaces/kube-system/serviceaccounts/kwok-controller',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/kwok-controller',
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kwok-controller',
      '/apis/kwok.x-k8s.io/v1alpha1/stages/node-initialize',
      '/apis/apps/v1/namespaces/kube-system/deployments/kwok-controller',
    ]);
  });

  it('refuses unknown kinds and namespaced objects without a namespace', () => {
    expect(() => objectPath({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } })).toThrow(
      'kind not known to the launcher',
    );
    expect(() => objectPath({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } })).toThrow(
      'Deployment d needs a namespace',
    );
  });
});
