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
      batchIdleMs: 1_000,
      batchMaxMs: 10_000,
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
  ])('refuses %j', (values, message) => {
    const withProvider =
      'provider' in values || Object.keys(values).length === 0 ? values : { provider: 'kwok', ...values };
    const call = () => parseControllerFlags(withProvider, env);
    expect(call).toThrow(UsageError);
    expect(call).toThrow(message);
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
