import { describe, expect, it } from 'vitest';
import { UsageError } from '../command.js';
import { flagDurationMs } from './duration.js';
import { parseControllerFlags } from './flags.js';

const env = { kubeconfig: undefined, defaultIdentity: () => 'host_0123abcd' };

describe('parseControllerFlags', () => {
  it('fills in the defaults of cli-flags.md', () => {
    expect(parseControllerFlags({ provider: 'kwok' }, env)).toEqual({
      provider: 'kwok',
      kubeconfig: undefined,
      clusterName: 'nodewright',
      metricsPort: 8080,
      healthPort: 8081,
      leaderElection: { namespace: 'kube-system', name: 'nodewright-leader-election' },
      identity: 'host_0123abcd',
      installCrds: true,
      settings: {},
      logLevel: 'info',
      logFormat: 'json',
      bindAddress: undefined,
      batchIdleMs: 1_000,
      batchMaxMs: 10_000,
      kubeRequestTimeoutMs: 30_000,
      kubeListTimeoutMs: 60_000,
      reconcileTimeoutMs: 300_000,
      karpenterLease: { namespace: 'kube-system', name: 'karpenter-leader-election' },
    });
  });

  it('reads every flag', () => {
    const flags = parseControllerFlags(
      {
        provider: 'aws',
        kubeconfig: '/k',
        'cluster-name': 'prod',
        'metrics-port': '0',
        'health-port': '9000',
        'leader-elect': 'true',
        'leader-election-namespace': 'nw',
        'leader-election-id': 'lock',
        identity: 'me',
        'install-crds': 'false',
        set: ['region=eu-west-1', 'endpoint=http://x?a=b'],
        'log-level': 'debug',
        'batch-idle-duration': '500ms',
        'batch-max-duration': '1m',
        'kube-request-timeout': '10s',
        'kube-list-timeout': '2m',
        'reconcile-timeout': '90s',
      },
      { ...env, kubeconfig: '/env' },
    );
    expect(flags).toMatchObject({
      kubeconfig: '/k',
      clusterName: 'prod',
      metricsPort: 0,
      healthPort: 9000,
      leaderElection: { namespace: 'nw', name: 'lock' },
      identity: 'me',
      installCrds: false,
      settings: { region: 'eu-west-1', endpoint: 'http://x?a=b' },
      logLevel: 'debug',
      batchIdleMs: 500,
      batchMaxMs: 60_000,
      kubeRequestTimeoutMs: 10_000,
      kubeListTimeoutMs: 120_000,
      reconcileTimeoutMs: 90_000,
    });
  });

  it('takes $KUBECONFIG when --kubeconfig is absent, and no election with --leader-elect=false', () => {
    const flags = parseControllerFlags(
      { provider: 'kwok', 'leader-elect': 'false' },
      { ...env, kubeconfig: '/env' },
    );
    expect(flags.kubeconfig).toBe('/env');
    expect(flags.leaderElection).toBeUndefined();
  });

  it.each([
    [{}, '--provider is required'],
    [
      { 'metrics-port': '70000' },
      "--metrics-port must be a port number 0..65535 (0 = any free port), not '70000'",
    ],
    [{ 'health-port': 'x' }, "--health-port must be a port number 0..65535 (0 = any free port), not 'x'"],
    [{ 'leader-elect': 'yes' }, "--leader-elect must be true or false, not 'yes'"],
    [{ 'install-crds': '1' }, "--install-crds must be true or false, not '1'"],
    [{ set: ['novalue'] }, "--set must be key=value, not 'novalue'"],
    [{ 'log-level': 'trace' }, "--log-level must be debug, info, warn or error, not 'trace'"],
    [
      { 'batch-idle-duration': '1x' },
      "--batch-idle-duration must be a duration such as 500ms, 1s or 1m, not '1x'",
    ],
    [{ 'batch-idle-duration': '20s' }, '--batch-idle-duration must not be longer than --batch-max-duration'],
    [{ identity: '' }, '--identity must not be empty'],
    [{ 'reconcile-timeout': '0' }, "--reconcile-timeout must be longer than 0, not '0'"],
    [
      { 'kube-request-timeout': '30' },
      "--kube-request-timeout must be a duration such as 500ms, 1s or 1m, not '30'",
    ],
    [{ 'log-format': 'yaml' }, "--log-format must be json or text, not 'yaml'"],
    [{ 'bind-address': '' }, '--bind-address must not be empty'],
    [
      { 'health-port': '1', 'health-probe-port': '2' },
      "--health-port and --health-probe-port disagree ('1' vs '2')",
    ],
    [
      { 'leader-elect': 'true', 'disable-leader-election': 'true' },
      '--leader-elect and --disable-leader-election disagree; give one of them',
    ],
    [{ 'karpenter-lease': 'lease-only' }, "--karpenter-lease must be NAMESPACE/NAME, not 'lease-only'"],
    [{ 'run-beside-karpenter': 'maybe' }, "--run-beside-karpenter must be true or false, not 'maybe'"],
  ])('refuses %j', (values, message) => {
    const withProvider =
      'provider' in values || Object.keys(values).length === 0 ? values : { provider: 'kwok', ...values };
    const call = () => parseControllerFlags(withProvider, env);
    expect(call).toThrow(UsageError);
    expect(call).toThrow(message);
  });
});

describe('parseControllerFlags, Karpenter spellings and environment variables', () => {
  const variables = (vars: Record<string, string>) => ({ ...env, variable: (name: string) => vars[name] });

  it('takes Karpenter flag names as aliases of its own', () => {
    const flags = parseControllerFlags(
      {
        provider: 'kwok',
        'health-probe-port': '9443',
        'leader-election-name': 'karpenter-lock',
        'disable-leader-election': 'false',
        'log-format': 'text',
        'bind-address': '127.0.0.1',
        'run-beside-karpenter': 'true',
      },
      env,
    );
    expect(flags).toMatchObject({
      healthPort: 9443,
      leaderElection: { namespace: 'kube-system', name: 'karpenter-lock' },
      logFormat: 'text',
      bindAddress: '127.0.0.1',
      karpenterLease: undefined,
    });
    expect(
      parseControllerFlags({ provider: 'kwok', 'disable-leader-election': 'true' }, env).leaderElection,
    ).toBe(undefined);
  });

  it("reads a flag not given from its variable, Karpenter's name where Karpenter has one", () => {
    const flags = parseControllerFlags(
      {},
      variables({
        NODEWRIGHT_PROVIDER: 'aws',
        CLUSTER_NAME: 'prod',
        METRICS_PORT: '8000',
        HEALTH_PROBE_PORT: '8001',
        DISABLE_LEADER_ELECTION: 'true',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'text',
        BATCH_IDLE_DURATION: '2s',
        BATCH_MAX_DURATION: '20s',
        NODEWRIGHT_BIND_ADDRESS: '0.0.0.0',
        NODEWRIGHT_INSTALL_CRDS: 'false',
        NODEWRIGHT_KARPENTER_LEASE: 'karpenter/karpenter-leader-election',
        NODEWRIGHT_KUBE_LIST_TIMEOUT: '3m',
        NODEWRIGHT_RECONCILE_TIMEOUT: '10m',
      }),
    );
    expect(flags).toMatchObject({
      provider: 'aws',
      clusterName: 'prod',
      metricsPort: 8000,
      healthPort: 8001,
      leaderElection: undefined,
      logLevel: 'debug',
      logFormat: 'text',
      batchIdleMs: 2_000,
      batchMaxMs: 20_000,
      bindAddress: '0.0.0.0',
      installCrds: false,
      karpenterLease: { namespace: 'karpenter', name: 'karpenter-leader-election' },
      kubeListTimeoutMs: 180_000,
      reconcileTimeoutMs: 600_000,
    });
  });

  it('lets the flag win over its variable, and names the variable when its value is wrong', () => {
    const vars = variables({ METRICS_PORT: '8000', LOG_LEVEL: 'verbose' });
    expect(
      parseControllerFlags({ provider: 'kwok', 'metrics-port': '9', 'log-level': 'warn' }, vars),
    ).toMatchObject({
      metricsPort: 9,
      logLevel: 'warn',
    });
    expect(() => parseControllerFlags({ provider: 'kwok' }, vars)).toThrow(
      "LOG_LEVEL must be debug, info, warn or error, not 'verbose'",
    );
  });
});

describe('flagDurationMs', () => {
  it('reads Go-style durations', () => {
    expect(flagDurationMs('1s')).toBe(1_000);
    expect(flagDurationMs('1.5s')).toBe(1_500);
    expect(flagDurationMs('250ms')).toBe(250);
    expect(flagDurationMs('1m30s')).toBe(90_000);
    expect(flagDurationMs('2h')).toBe(7_200_000);
    expect(flagDurationMs('0')).toBe(0);
    expect(flagDurationMs('10')).toBeUndefined();
    expect(flagDurationMs('s')).toBeUndefined();
  });
});
