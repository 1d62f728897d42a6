import { describe, expect, it } from 'vitest';
import { podSchema } from '../../apis/kubernetes/pod.js';
import { describeHostPort, hostPortConflict, hostPortsCollide, podHostPorts } from './host-ports.js';

describe('host ports', () => {
  it('collects host ports of app and sidecar containers only', () => {
    const p = podSchema.parse({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }] }],
        initContainers: [
          {
            name: 'side',
            restartPolicy: 'Always',
            ports: [{ containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }],
          },
          { name: 'init', ports: [{ containerPort: 9, hostPort: 9 }] },
        ],
      },
    });
    expect(podHostPorts(p).map(describeHostPort)).toEqual(['8080/TCP', '10.0.0.1:53/UDP']);
  });

  it('collides on the same port and protocol when IPs overlap', () => {
    const any = { ip: '', port: 80, protocol: 'TCP' };
    const one = { ip: '10.0.0.1', port: 80, protocol: 'TCP' };
    const two = { ip: '10.0.0.2', port: 80, protocol: 'TCP' };
    expect(hostPortsCollide(any, one)).toBe(true);
    expect(hostPortsCollide(one, two)).toBe(false);
    expect(hostPortsCollide(one, { ...one, protocol: 'UDP' })).toBe(false);
    expect(hostPortConflict([one, two], [{ ...any, port: 81 }, any])).toEqual({ wanted: any, used: one });
  });
});
