/** The finalizer that keeps a stopped controller Pod readable until its exit code is taken. */
export const ExitStatusFinalizer = 'e2e.nodewright.io/exit-status';
/** Marks the Pods the in-cluster launcher made; its value is the identity. */
export const ControllerPodLabel = 'e2e.nodewright.io/controller';

/** The parts of the chart's Deployment a controller Pod is made from. */
export interface DeploymentTemplate {
  readonly spec: {
    readonly selector: { readonly matchLabels?: Readonly<Record<string, string>> };
    readonly template: {
      readonly metadata?: {
        readonly labels?: Readonly<Record<string, string>>;
        readonly annotations?: Readonly<Record<string, string>>;
      };
      readonly spec: Readonly<Record<string, unknown>>;
    };
  };
}

/**
 * One controller replica as a bare Pod of the installed Deployment's template, named for its
 * identity (the template reads the identity from the Pod's name). It loses the Deployment's
 * selector labels, or the ReplicaSet (scaled to 0) would adopt and delete it; it never
 * restarts, so a killed replica stays dead as a crashed machine does; and it carries
 * ExitStatusFinalizer, so its terminated container status can be read after deletion. Pure.
 */
export function controllerPod(
  deployment: DeploymentTemplate,
  identity: string,
  namespace: string,
): Record<string, unknown> {
  const selector = new Set(Object.keys(deployment.spec.selector.matchLabels ?? {}));
  const labels = Object.fromEntries(
    Object.entries(deployment.spec.template.metadata?.labels ?? {}).filter(([key]) => !selector.has(key)),
  );
  const annotations = deployment.spec.template.metadata?.annotations;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: identity,
      namespace,
      labels: { ...labels, [ControllerPodLabel]: identity },
      ...(annotations === undefined ? {} : { annotations }),
      finalizers: [ExitStatusFinalizer],
    },
    spec: { ...deployment.spec.template.spec, restartPolicy: 'Never' },
  };
}

/** A container's `state.terminated`, as far as its exit is concerned. */
export interface TerminatedState {
  readonly exitCode: number;
  readonly signal?: number;
}

/**
 * How a container ended, in a child process's terms: an exit code above 128 is the signal
 * (128 + n) that ended it, as the runtime reports a SIGKILL as 137. Pure.
 */
export function containerExit(
  state: TerminatedState,
  signalNames: Readonly<Record<string, number>>,
): { code: number | null; signal: NodeJS.Signals | null } {
  const number = state.signal ?? (state.exitCode > 128 ? state.exitCode - 128 : 0);
  const name = Object.entries(signalNames).find(([, n]) => n === number)?.[0];
  if (number > 0 && name !== undefined) return { code: null, signal: name as NodeJS.Signals };
  return { code: state.exitCode, signal: null };
}

/**
 * Whether a /proc/<pid>/cgroup text places the process in the Pod `uid`: kubelet names pod
 * cgroups `pod<uid>` (cgroupfs driver) or `...-pod<uid with _ for ->.slice` (systemd). Pure.
 */
export function inPodCgroup(cgroup: string, uid: string): boolean {
  return cgroup.includes(`pod${uid}`) || cgroup.includes(`pod${uid.replaceAll('-', '_')}`);
}
