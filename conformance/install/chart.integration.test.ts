import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChartProviders,
  Charts,
  ensureHelm,
  providerValues,
  type RenderedObject,
  renderChart,
  runHelm,
} from './src/helm.js';
import { RbacManifestHeader, rbacManifestPath } from './src/rbac-manifests.js';

// `helm lint` and `helm template` of both charts with each provider's values file, with helm
// built from its Go module (cached by version like the control plane). The objects are
// checked as the API server and kubelet would read them; rbac.integration.test.ts installs
// them on a real API server.

let helm: string;
let home: string;

beforeAll(async () => {
  helm = await ensureHelm();
  home = await mkdtemp(join(tmpdir(), 'nw-helm-'));
}, 600_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

interface Container {
  name: string;
  image: string;
  args: string[];
  env: { name: string; value?: string; valueFrom?: unknown }[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  serviceAccountName: string;
  priorityClassName: string;
  containers: Container[];
  topologySpreadConstraints: {
    topologyKey: string;
    labelSelector: { matchLabels: Record<string, string> };
  }[];
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: unknown[] } };
  securityContext: Record<string, unknown>;
  volumes?: { name: string; configMap?: { name: string } }[];
}
interface Deployment {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

function one(objects: readonly RenderedObject[], kind: string): RenderedObject {
  const found = objects.filter((o) => o.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
}

const identityAnnotations = {
  kwok: {},
  aws: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/nodewright-controller' },
  azure: {
    'azure.workload.identity/client-id': '11111111-1111-1111-1111-111111111111',
    'azure.workload.identity/tenant-id': '22222222-2222-2222-2222-222222222222',
  },
  gcp: { 'iam.gke.io/gcp-service-account': 'nodewright@my-project-123.iam.gserviceaccount.com' },
} as const;

describe('helm lint', () => {
  it.each(ChartProviders)('passes --strict for charts/nodewright with values-%s.yaml', async (provider) => {
    const result = await runHelm(
      helm,
      ['lint', Charts.controller, '--strict', '-f', providerValues(provider)],
      home,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('0 chart(s) failed');
  });

  it('passes --strict for charts/nodewright-crd', async () => {
    const result = await runHelm(helm, ['lint', Charts.crd, '--strict'], home);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('refuses to render the controller chart without a provider, or with an unknown one', async () => {
    const none = await runHelm(helm, ['template', 'nw', Charts.controller, '--kube-version', '1.36.5'], home);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('provider is required');
    const bad = await runHelm(
      helm,
      ['template', 'nw', Charts.controller, '--kube-version', '1.36.5', '--set', 'provider=ibm'],
      home,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('provider must be kwok, aws, azure or gcp');
  });
});

describe.each(ChartProviders)('helm template charts/nodewright -f values-%s.yaml', (provider) => {
  let objects: RenderedObject[];
  let values: string;
  beforeAll(async () => {
    objects = await renderChart(helm, home, Charts.controller, { values: [providerValues(provider)] });
    values = await readFile(providerValues(provider), 'utf8');
  });

  it('renders the controller objects and no CRD (those belong to nodewright-crd)', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Deployment',
      'PodDisruptionBudget',
      'Role',
      'Role',
      'RoleBinding',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
    // The one exception: reading Karpenter's Lease, where Karpenter runs.
    const outside = objects.filter(
      (o) => o.metadata.namespace !== undefined && o.metadata.namespace !== 'nodewright',
    );
    expect(outside.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      'Role kube-system/nodewright-karpenter-lease',
      'RoleBinding kube-system/nodewright-karpenter-lease',
    ]);
  });

  it("grants reading Karpenter's Lease, that one, only while the start-up check runs", async () => {
    const role = objects.find(
      (o) => o.kind === 'Role' && o.metadata.namespace === 'kube-system',
    ) as unknown as {
      rules: unknown[];
    };
    expect(role.rules).toEqual([
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['karpenter-leader-election'],
        verbs: ['get'],
      },
    ]);
    const beside = await renderChart(helm, home, Charts.controller, {
      values: [providerValues(provider)],
      set: ['settings.runBesideKarpenter=true'],
    });
    expect(beside.filter((o) => o.kind === 'Role').map((o) => o.metadata.namespace)).toEqual(['nodewright']);
  });

  it('runs 2 replicas under the ServiceAccount, leader-elected, CRDs not installed by the controller', () => {
    const deployment = one(objects, 'Deployment') as unknown as Deployment;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0]!;
    expect(deployment.spec.replicas).toBe(2);
    expect(pod.serviceAccountName).toBe(one(objects, 'ServiceAccount').metadata.name);
    expect(container.args[0]).toBe('controller');
    expect(container.args).toContain(`--provider=${provider}`);
    expect(container.args).toContain('--install-crds=false');
    expect(container.args).toContain('--leader-elect=$(NODEWRIGHT_LEADER_ELECT)');
    expect(container.env.find((e) => e.name === 'NODEWRIGHT_LEADER_ELECT')?.value).toBe('true');
    expect(container.env.find((e) => e.name === 'NODEWRIGHT_IDENTITY')?.valueFrom).toEqual({
      fieldRef: { fieldPath: 'metadata.name' },
    });
    expect(container.image).toBe('nodewright:0.1.0');
  });

  it('defines every $(VAR) its arguments read, so the kubelet expands them all', () => {
    const container = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec.containers[0]!;
    const defined = new Set(container.env.map((e) => e.name));
    const read = container.args.flatMap((a) => [...a.matchAll(/\$\(([A-Z0-9_]+)\)/g)].map((m) => m[1]!));
    expect(read.length).toBeGreaterThanOrEqual(8);
    expect(read.filter((name) => !defined.has(name))).toEqual([]);
  });

  it("passes the provider's settings as NODEWRIGHT_SETTING_* variables and --set flags", () => {
    const container = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec.containers[0]!;
    const sets = container.args.filter((a) => a.startsWith('--set='));
    const keys = [...values.matchAll(/^ {2}([a-zA-Z]+): /gm)].map((m) => m[1]!);
    const settingKeys = values.includes('providerSettings:')
      ? keys.filter((k) => k !== 'aws' && k !== 'azure' && k !== 'gcp')
      : [];
    expect(sets.map((a) => a.slice('--set='.length).split('=')[0]).sort()).toEqual(settingKeys.sort());
    for (const arg of sets) {
      const env = /\$\((NODEWRIGHT_SETTING_[A-Z0-9_]+)\)$/.exec(arg)?.[1];
      expect(env, arg).toBeDefined();
      expect(container.env.find((e) => e.name === env)?.value, arg).toBeTruthy();
    }
  });

  it('probes /healthz and /readyz on the health port the controller listens on', () => {
    const container = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec.containers[0]!;
    const health = container.ports.find((p) => p.name === 'http-health');
    expect(health?.containerPort).toBe(8081);
    expect(container.args).toContain('--health-port=8081');
    expect(container.args).toContain('--metrics-port=8080');
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http-health' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http-health' });
  });

  it('sets resources, priority, spread, anti-affinity and a read-only non-root container', () => {
    const pod = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec;
    const container = pod.containers[0]!;
    expect(container.resources.requests).toEqual({ cpu: '500m', memory: '512Mi' });
    expect(container.resources.limits).toEqual({ memory: '1Gi' });
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(pod.topologySpreadConstraints[0]?.topologyKey).toBe('topology.kubernetes.io/zone');
    expect(pod.topologySpreadConstraints[0]?.labelSelector.matchLabels).toEqual(
      (one(objects, 'Deployment') as unknown as Deployment).spec.selector.matchLabels,
    );
    expect(pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
  });

  it("annotates the ServiceAccount for the cloud's workload identity", () => {
    const sa = one(objects, 'ServiceAccount');
    expect(sa.metadata.annotations ?? {}).toEqual(identityAnnotations[provider]);
    const labels = (one(objects, 'Deployment') as unknown as Deployment).spec.template.metadata.labels;
    expect(labels['azure.workload.identity/use']).toBe(provider === 'azure' ? 'true' : undefined);
  });

  it('selects the pods from the PDB and the Service, on the metrics port', () => {
    const labels = (one(objects, 'Deployment') as unknown as Deployment).spec.template.metadata.labels;
    const pdb = one(objects, 'PodDisruptionBudget') as unknown as {
      spec: { maxUnavailable: number; selector: { matchLabels: Record<string, string> } };
    };
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    const service = one(objects, 'Service') as unknown as {
      spec: { selector: Record<string, string>; ports: { port: number; targetPort: string }[] };
    };
    expect(labels).toMatchObject(service.spec.selector);
    expect(service.spec.ports).toEqual([
      { name: 'http-metrics', port: 8080, targetPort: 'http-metrics', protocol: 'TCP' },
    ]);
  });

  it('binds the ClusterRole and the Role to the ServiceAccount in the release namespace', () => {
    const sa = one(objects, 'ServiceAccount').metadata.name;
    for (const kind of ['ClusterRoleBinding', 'RoleBinding']) {
      const bindings = objects.filter((o) => o.kind === kind) as unknown as {
        subjects: unknown[];
        roleRef: { kind: string };
      }[];
      expect(bindings.length).toBeGreaterThan(0);
      for (const binding of bindings) {
        expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: 'nodewright' }]);
        expect(binding.roleRef.kind).toBe(kind.replace('Binding', ''));
      }
    }
  });

  it('matches the plain manifests in deploy/rbac (UPDATE_RBAC=1 rewrites them)', async () => {
    const result = await runHelm(
      helm,
      [
        'template',
        'nodewright',
        Charts.controller,
        '--namespace',
        'nodewright',
        '--kube-version',
        '1.36.5',
        '-f',
        providerValues(provider),
        '--show-only',
        'templates/serviceaccount.yaml',
        '--show-only',
        'templates/rbac.yaml',
      ],
      home,
    );
    expect(result.code, result.stderr).toBe(0);
    const expected = RbacManifestHeader + result.stdout;
    const path = rbacManifestPath(provider);
    if (process.env.UPDATE_RBAC === '1') {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path, expected);
    }
    const committed = await readFile(path, 'utf8').catch(() => '');
    expect(committed === expected, `${path} is stale: run with UPDATE_RBAC=1`).toBe(true);
  });
});

describe('credentials', () => {
  it.each(['accessKeyId', 'secretAccessKey', 'sessionToken', 'staticAccessToken'])(
    'refuses providerSettings.%s, which the kubelet would expand into the command line',
    async (key) => {
      const result = await runHelm(
        helm,
        [
          'template',
          'nw',
          Charts.controller,
          '--kube-version',
          '1.36.5',
          '-f',
          providerValues('aws'),
          '--set',
          `providerSettings.${key}=x`,
        ],
        home,
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`providerSettings.${key} would put a credential on the command line`);
    },
  );

  it('passes them through extraEnv from a Secret instead, outside the arguments', async () => {
    const objects = await renderChart(helm, home, Charts.controller, {
      values: [providerValues('aws')],
      set: [
        'extraEnv[0].name=AWS_ACCESS_KEY_ID',
        'extraEnv[0].valueFrom.secretKeyRef.name=aws-mock',
        'extraEnv[0].valueFrom.secretKeyRef.key=id',
      ],
    });
    const container = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec.containers[0]!;
    expect(container.env.find((e) => e.name === 'AWS_ACCESS_KEY_ID')?.valueFrom).toEqual({
      secretKeyRef: { name: 'aws-mock', key: 'id' },
    });
    expect(container.args.join(' ')).not.toContain('AWS_ACCESS_KEY_ID');
  });

  it('mounts extraVolumes where extraVolumeMounts say, for a CA file the provider trusts; none by default', async () => {
    const plain = await renderChart(helm, home, Charts.controller, { values: [providerValues('azure')] });
    const plainSpec = (one(plain, 'Deployment') as unknown as Deployment).spec.template.spec;
    expect(plainSpec.volumes).toBeUndefined();
    expect(plainSpec.containers[0]!.volumeMounts).toBeUndefined();
    const objects = await renderChart(helm, home, Charts.controller, {
      values: [providerValues('azure')],
      set: [
        'extraVolumes[0].name=proxy-ca',
        'extraVolumes[0].configMap.name=proxy-ca',
        'extraVolumeMounts[0].name=proxy-ca',
        'extraVolumeMounts[0].mountPath=/etc/nodewright/ca',
        'extraVolumeMounts[0].readOnly=true',
        'providerSettings.caFile=/etc/nodewright/ca/ca.crt',
      ],
    });
    const spec = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec;
    expect(spec.volumes).toEqual([{ name: 'proxy-ca', configMap: { name: 'proxy-ca' } }]);
    expect(spec.containers[0]!.volumeMounts).toEqual([
      { name: 'proxy-ca', mountPath: '/etc/nodewright/ca', readOnly: true },
    ]);
    expect(spec.containers[0]!.securityContext.readOnlyRootFilesystem).toBe(true);
  });
});

describe('optional objects', () => {
  it('renders a ServiceMonitor for /metrics only when serviceMonitor.enabled', async () => {
    const objects = await renderChart(helm, home, Charts.controller, {
      values: [providerValues('kwok')],
      set: ['serviceMonitor.enabled=true', 'serviceMonitor.additionalLabels.release=prometheus'],
    });
    const monitor = one(objects, 'ServiceMonitor') as unknown as {
      metadata: { labels: Record<string, string> };
      spec: {
        endpoints: { port: string; path: string }[];
        selector: { matchLabels: Record<string, string> };
      };
    };
    expect(monitor.metadata.labels.release).toBe('prometheus');
    expect(monitor.spec.endpoints).toEqual([{ port: 'http-metrics', path: '/metrics', interval: '30s' }]);
    const service = one(objects, 'Service');
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
  });

  it('uses an existing ServiceAccount when serviceAccount.create=false', async () => {
    const objects = await renderChart(helm, home, Charts.controller, {
      values: [providerValues('kwok')],
      set: ['serviceAccount.create=false', 'serviceAccount.name=mine'],
    });
    expect(objects.some((o) => o.kind === 'ServiceAccount')).toBe(false);
    const pod = (one(objects, 'Deployment') as unknown as Deployment).spec.template.spec;
    expect(pod.serviceAccountName).toBe('mine');
  });
});

describe('helm template charts/nodewright-crd', () => {
  it('renders only CustomResourceDefinitions: NodePool, NodeClaim and each provider NodeClass', async () => {
    const objects = await renderChart(helm, home, Charts.crd);
    expect(new Set(objects.map((o) => o.kind))).toEqual(new Set(['CustomResourceDefinition']));
    expect(objects.map((o) => o.metadata.name).sort()).toEqual([
      'aksnodeclasses.karpenter.azure.com',
      'ec2nodeclasses.karpenter.k8s.aws',
      'gcenodeclasses.karpenter.k8s.gcp',
      'kwoknodeclasses.karpenter.kwok.sh',
      'nodeclaims.karpenter.sh',
      'nodepools.karpenter.sh',
    ]);
  });
});
