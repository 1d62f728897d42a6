import { describe, expect, it } from 'vitest';
import { COMPONENTS, type ControlPlaneLayout, componentPlans, validateLayout } from './components.js';

const layout = (overrides: Partial<ControlPlaneLayout> = {}): ControlPlaneLayout => ({
  binDir: '/bin-dir',
  etcdDataDir: '/shm/etcd',
  caCertFile: '/c/ca.crt',
  adminCertFile: '/c/admin.crt',
  adminKeyFile: '/c/admin.key',
  kubeconfigFile: '/c/kubeconfig',
  kwokConfigFile: '/c/kwok.yaml',
  ports: {
    etcdClient: 1001,
    etcdPeer: 1002,
    apiServer: 1003,
    controllerManager: 1004,
    scheduler: 1005,
    kwok: 1006,
  },
  serviceClusterIpRange: '10.96.0.0/12',
  podCidr: '10.0.0.0/16',
  nodeLeaseDurationSeconds: 40,
  nodeMonitorGracePeriodSeconds: 50,
  kwokManages: 'annotated',
  extraArgs: {},
  ...overrides,
});

const argsOf = (l: ControlPlaneLayout, name: string): string[] =>
  componentPlans(l).find((p) => p.name === name)?.args ?? [];

describe('componentPlans', () => {
  it('lists the components in start order with binaries from the bin dir', () => {
    const plans = componentPlans(layout());
    expect(plans.map((p) => p.name)).toEqual([...COMPONENTS]);
    expect(plans.map((p) => p.binary)).toEqual(COMPONENTS.map((c) => `/bin-dir/${c}`));
  });

  it('wires etcd and the API server through the chosen ports and certificates', () => {
    const l = layout();
    expect(argsOf(l, 'etcd')).toEqual(
      expect.arrayContaining([
        '--data-dir=/shm/etcd',
        '--unsafe-no-fsync=true',
        '--listen-client-urls=http://127.0.0.1:1001',
        '--initial-cluster=nodewright=http://127.0.0.1:1002',
      ]),
    );
    expect(argsOf(l, 'kube-apiserver')).toEqual(
      expect.arrayContaining([
        '--etcd-servers=http://127.0.0.1:1001',
        '--secure-port=1003',
        '--client-ca-file=/c/ca.crt',
        '--tls-cert-file=/c/admin.crt',
        '--service-account-signing-key-file=/c/admin.key',
        '--service-cluster-ip-range=10.96.0.0/12',
        '--endpoint-reconciler-type=none',
        '--authorization-mode=Node,RBAC',
      ]),
    );
  });

  it('matches the controller-manager grace period to the layout and gives each component its port', () => {
    const l = layout();
    expect(argsOf(l, 'kube-controller-manager')).toEqual(
      expect.arrayContaining([
        '--node-monitor-grace-period=50s',
        '--secure-port=1004',
        '--leader-elect=false',
      ]),
    );
    expect(argsOf(l, 'kube-scheduler')).toEqual(expect.arrayContaining(['--secure-port=1005']));
    expect(argsOf(l, 'kwok')).toEqual(
      expect.arrayContaining([
        '--node-lease-duration-seconds=40',
        '--server-address=127.0.0.1:1006',
        '--cidr=10.0.0.0/16',
        '--config=/c/kwok.yaml',
      ]),
    );
  });

  it('has kwok manage annotated nodes by default and all nodes when asked', () => {
    expect(argsOf(layout(), 'kwok')).toContain(
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
    );
    const all = argsOf(layout({ kwokManages: 'all' }), 'kwok');
    expect(all).toContain('--manage-all-nodes=true');
    expect(all.some((a) => a.startsWith('--manage-nodes-with-annotation-selector'))).toBe(false);
  });

  it('appends extra arguments last, so they override the defaults', () => {
    const args = argsOf(
      layout({ extraArgs: { 'kube-apiserver': ['--feature-gates=Foo=true'] } }),
      'kube-apiserver',
    );
    expect(args.at(-1)).toBe('--feature-gates=Foo=true');
    expect(argsOf(layout({ extraArgs: { 'kube-apiserver': ['--x'] } }), 'etcd')).not.toContain('--x');
  });

  it('points health checks at each component', () => {
    const health = Object.fromEntries(componentPlans(layout()).map((p) => [p.name, p.health]));
    expect(health['kube-apiserver']).toEqual({ url: 'https://127.0.0.1:1003/readyz', tls: 'client-cert' });
    expect(health.etcd).toEqual({ url: 'http://127.0.0.1:1001/health', tls: 'none' });
    expect(health.kwok).toEqual({ url: 'http://127.0.0.1:1006/healthz', tls: 'none' });
  });
});

describe('validateLayout', () => {
  it('rejects a grace period shorter than the node lease', () => {
    expect(() =>
      validateLayout(layout({ nodeLeaseDurationSeconds: 40, nodeMonitorGracePeriodSeconds: 30 })),
    ).toThrow(/NotReady/);
  });

  it('accepts a grace period equal to the lease', () => {
    expect(() =>
      validateLayout(layout({ nodeLeaseDurationSeconds: 40, nodeMonitorGracePeriodSeconds: 40 })),
    ).not.toThrow();
  });
});
