import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  ControllerPodLabel,
  containerExit,
  controllerPod,
  ExitStatusFinalizer,
  inPodCgroup,
} from './controller-pod.js';

const deployment = {
  spec: {
    selector: { matchLabels: { 'app.kubernetes.io/name': 'nodewright', 'app.kubernetes.io/instance': 'nw' } },
    template: {
      metadata: {
        labels: {
          'app.kubernetes.io/name': 'nodewright',
          'app.kubernetes.io/instance': 'nw',
          team: 'platform',
        },
        annotations: { 'prometheus.io/scrape': 'true' },
      },
      spec: {
        serviceAccountName: 'nodewright',
        containers: [{ name: 'controller' }],
        restartPolicy: 'Always',
      },
    },
  },
};

describe('controllerPod', () => {
  it('names the Pod for the identity and keeps the template spec, never restarting', () => {
    const pod = controllerPod(deployment, 'e2e-a', 'nodewright') as {
      metadata: Record<string, unknown>;
      spec: Record<string, unknown>;
    };
    expect(pod.metadata.name).toBe('e2e-a');
    expect(pod.metadata.namespace).toBe('nodewright');
    expect(pod.spec.serviceAccountName).toBe('nodewright');
    expect(pod.spec.containers).toEqual([{ name: 'controller' }]);
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.metadata.finalizers).toEqual([ExitStatusFinalizer]);
    expect(pod.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
  });

  it('drops the selector labels, so the scaled-down ReplicaSet never adopts it', () => {
    const pod = controllerPod(deployment, 'e2e-b', 'nodewright') as {
      metadata: { labels: Record<string, string> };
    };
    expect(pod.metadata.labels).toEqual({ team: 'platform', [ControllerPodLabel]: 'e2e-b' });
  });
});

describe('containerExit', () => {
  it('reads 137 as SIGKILL and 143 as SIGTERM', () => {
    expect(containerExit({ exitCode: 137 }, constants.signals)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(containerExit({ exitCode: 143 }, constants.signals)).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('keeps an ordinary exit code, and prefers a reported signal', () => {
    expect(containerExit({ exitCode: 0 }, constants.signals)).toEqual({ code: 0, signal: null });
    expect(containerExit({ exitCode: 1 }, constants.signals)).toEqual({ code: 1, signal: null });
    expect(containerExit({ exitCode: 0, signal: 9 }, constants.signals)).toEqual({
      code: null,
      signal: 'SIGKILL',
    });
  });
});

describe('inPodCgroup', () => {
  const uid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  it('finds the pod under either cgroup driver', () => {
    expect(inPodCgroup(`4:memory:/docker/abc/kubepods/besteffort/pod${uid}/def`, uid)).toBe(true);
    const systemd = `0::/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-pod${uid.replaceAll('-', '_')}.slice/cri-containerd-1.scope`;
    expect(inPodCgroup(systemd, uid)).toBe(true);
  });
  it('refuses another pod', () => {
    expect(inPodCgroup('4:memory:/docker/abc/kubepods/besteffort/pod0000/def', uid)).toBe(false);
  });
});
