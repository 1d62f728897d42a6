import { type LabelSelector, matchesLabelSelector } from '@nodewright/core/apis';
import { formatObjectError, type Manifest, type ManifestError } from '@nodewright/core/manifests';

/** The kinds `--expand-workloads` turns into pods, and where each keeps its pod template. */
const WorkloadKinds: Readonly<Record<string, readonly string[]>> = {
  'apps/v1/Deployment': ['spec'],
  'apps/v1/ReplicaSet': ['spec'],
  'apps/v1/StatefulSet': ['spec'],
  'batch/v1/Job': ['spec'],
  'batch/v1/CronJob': ['spec', 'jobTemplate', 'spec'],
};

/** Past this many pods from one workload the input is almost certainly a typo (replicas: 100000). */
export const MaxPodsPerWorkload = 5000;

/** What expanding workloads made: the manifests to parse, a line per workload, and errors. */
export interface WorkloadExpansion {
  /** The input with every workload replaced by the pods it would create. */
  readonly manifests: Manifest[];
  /** One line per workload: how many pods it became and why that many. */
  readonly notes: string[];
  readonly errors: ManifestError[];
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (m: Manifest) => `${m.apiVersion}/${m.kind}`;

/**
 * Replaces Deployments, ReplicaSets, StatefulSets, Jobs and CronJobs with the pending pods they
 * would create, so "what would deploying this cost?" is one `schedule` call. Pods of the input
 * that a workload's selector already selects (as in `kubectl get all -o yaml`) count towards
 * its replicas, and a ReplicaSet or Job whose owning Deployment or CronJob is also in the input
 * is left to its owner, so nothing is counted twice. A Job runs min(parallelism, completions)
 * pods at once (none once it is Complete or Failed, fewer as its pods succeed); a CronJob one
 * Job's worth. Finished pods (Succeeded, Failed) and pods being
 * deleted do not count, and Helm hooks (test pods, install/upgrade Jobs) are left out with a
 * note, since `helm install` does not keep them running. Pure: the caller prints notes and errors.
 */
export function expandWorkloads(manifests: readonly Manifest[]): WorkloadExpansion {
  const out: Manifest[] = [];
  const notes: string[] = [];
  const errors: ManifestError[] = [];
  const kept: Manifest[] = [];
  for (const m of manifests) {
    const hook = helmHook(m);
    if (hook === undefined) kept.push(m);
    else notes.push(formatObjectError(m.source.file, m.id, '', `skipped: ${hook}`, m.source.line));
  }
  const present = new Set(kept.map((m) => `${keyOf(m)}/${namespaceOf(m.object)}/${m.name ?? ''}`));
  const pods = kept.filter((m) => keyOf(m) === 'v1/Pod' && isActive(m.object));
  for (const m of kept) {
    const templatePath = WorkloadKinds[keyOf(m)];
    if (templatePath === undefined) {
      out.push(m);
      continue;
    }
    const owner = ownerInInput(m, present);
    if (owner !== undefined) {
      notes.push(
        `${m.source.file}: ${m.id}: not expanded: its owner ${owner} is in the input and is expanded instead`,
      );
      continue;
    }
    const expanded = expandOne(m, templatePath, pods);
    if ('error' in expanded) {
      errors.push({ file: m.source.file, object: m.id, ...expanded.error, line: m.source.line });
      continue;
    }
    out.push(...expanded.pods);
    notes.push(
      `${m.source.file}: ${m.id}: expanded into ${expanded.pods.length} pending pod${expanded.pods.length === 1 ? '' : 's'} (${expanded.why})`,
    );
  }
  return { manifests: out, notes, errors };
}

/**
 * Why an object Helm renders as a hook is not part of what the chart deploys, or undefined
 * for an ordinary object. `helm template` prints hooks with the rest: test pods run only on
 * `helm test`, install and upgrade hooks only around those steps and are then deleted, so
 * counting them would plan capacity for pods that do not stay.
 */
function helmHook(m: Manifest): string | undefined {
  const meta = m.object.metadata;
  const annotations = isObj(meta) && isObj(meta.annotations) ? meta.annotations : {};
  const hook = annotations['helm.sh/hook'];
  if (typeof hook !== 'string' || hook.trim() === '') return undefined;
  const phases = hook.split(',').map((h) => h.trim());
  const when = phases.every((h) => h.startsWith('test'))
    ? 'runs only on helm test'
    : 'runs around helm install/upgrade/delete, not with the deployed chart';
  return `a Helm hook (helm.sh/hook: ${phases.join(',')}): ${when}`;
}

/** A pod that still holds its place among a workload's replicas: not finished, not being deleted. */
function isActive(pod: Obj): boolean {
  const meta = pod.metadata;
  if (isObj(meta) && meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) return false;
  const phase = isObj(pod.status) ? pod.status.phase : undefined;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

function namespaceOf(object: Obj): string {
  const meta = object.metadata;
  return isObj(meta) && typeof meta.namespace === 'string' ? meta.namespace : 'default';
}

function ownerInInput(m: Manifest, present: ReadonlySet<string>): string | undefined {
  const meta = m.object.metadata;
  const refs = isObj(meta) && Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  for (const ref of refs) {
    if (!isObj(ref) || typeof ref.kind !== 'string' || typeof ref.name !== 'string') continue;
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    if (present.has(`${apiVersion}/${ref.kind}/${namespaceOf(m.object)}/${ref.name}`))
      return `${ref.kind}/${ref.name}`;
  }
  return undefined;
}

type Expanded = { pods: Manifest[]; why: string } | { error: { path: string; message: string } };

function expandOne(m: Manifest, templatePath: readonly string[], pods: readonly Manifest[]): Expanded {
  let spec: unknown = m.object;
  for (const key of templatePath) spec = isObj(spec) ? spec[key] : undefined;
  const specPath = templatePath.join('.');
  if (!isObj(spec)) return { error: { path: specPath, message: 'is required to expand this workload' } };
  const template = spec.template;
  if (!isObj(template) || !isObj(template.spec)) {
    return { error: { path: `${specPath}.template.spec`, message: 'is required to expand this workload' } };
  }
  const wanted = wantedPods(
    m.kind,
    spec,
    specPath,
    m.kind === 'Job' ? jobProgress(m.object.status) : undefined,
  );
  if ('error' in wanted) return wanted;
  if (wanted.count > MaxPodsPerWorkload) {
    return {
      error: {
        path: wanted.path,
        message: `${wanted.count} pods is more than --expand-workloads makes from one workload (${MaxPodsPerWorkload})`,
      },
    };
  }
  const namespace = namespaceOf(m.object);
  const existing = countSelected(spec.selector, namespace, pods);
  const count = Math.max(0, wanted.count - existing);
  const name = m.name ?? m.kind.toLowerCase();
  const templateMeta = isObj(template.metadata) ? template.metadata : {};
  const made: Manifest[] = [];
  for (let i = 0; i < count; i++) {
    const podName = `${name}-${existing + i}`;
    const object = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...templateMeta,
        name: podName,
        namespace,
        ownerReferences: [{ apiVersion: m.apiVersion, kind: m.kind, name, controller: true }],
      },
      spec: template.spec,
    };
    made.push({
      apiVersion: 'v1',
      kind: 'Pod',
      name: podName,
      id: `Pod/${podName} (from ${m.id})`,
      object,
      // Lines of the pod's fields are not the workload's: errors point at the workload's start.
      // (read through m.source, not spread: the line of JSON input is found only when asked)
      source: {
        file: m.source.file,
        document: m.source.document,
        ...(m.source.item === undefined ? {} : { item: m.source.item }),
        ordinal: m.source.ordinal,
        get line() {
          return m.source.line;
        },
        lineOf: () => m.source.line,
      },
    });
  }
  const already = existing > 0 ? `, ${existing} already in the input` : '';
  return { pods: made, why: `${wanted.why}${already}` };
}

type Wanted = { count: number; why: string; path: string } | { error: { path: string; message: string } };

/** How far a Job has got, from its status (as `kubectl get` returns it): absent for a new one. */
interface JobProgress {
  /** `Complete` or `Failed` when a condition of that type is True: the Job runs no more pods. */
  readonly finished?: string;
  readonly succeeded: number;
}

function jobProgress(status: unknown): JobProgress | undefined {
  if (!isObj(status)) return undefined;
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const done = conditions.find(
    (c) => isObj(c) && (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  const succeeded = typeof status.succeeded === 'number' ? status.succeeded : 0;
  return isObj(done) ? { finished: String(done.type), succeeded } : { succeeded };
}

function wantedPods(kind: string, spec: Obj, specPath: string, progress?: JobProgress): Wanted {
  const int = (field: string): number | undefined | { error: { path: string; message: string } } => {
    const v = spec[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      return {
        error: {
          path: `${specPath}.${field}`,
          message: `must be a whole number >= 0, not ${JSON.stringify(v)}`,
        },
      };
    }
    return v;
  };
  if (kind === 'Job' || kind === 'CronJob') {
    const parallelism = int('parallelism');
    const completions = int('completions');
    if (typeof parallelism === 'object') return parallelism;
    if (typeof completions === 'object') return completions;
    const p = parallelism ?? 1;
    const path = `${specPath}.parallelism`;
    if (progress?.finished !== undefined) return { count: 0, why: `the Job is ${progress.finished}`, path };
    const succeeded = progress?.succeeded ?? 0;
    const remaining = completions === undefined ? undefined : Math.max(0, completions - succeeded);
    const count = remaining === undefined ? p : Math.min(p, remaining);
    const done = succeeded > 0 && completions !== undefined ? `, ${succeeded} succeeded` : '';
    return {
      count,
      why: `parallelism ${p}${completions === undefined ? '' : `, completions ${completions}`}${done}`,
      path,
    };
  }
  const replicas = int('replicas');
  if (typeof replicas === 'object') return replicas;
  const count = replicas ?? 1;
  return {
    count,
    why: replicas === undefined ? 'replicas unset: 1' : `replicas ${count}`,
    path: `${specPath}.replicas`,
  };
}

function countSelected(selector: unknown, namespace: string, pods: readonly Manifest[]): number {
  if (!isObj(selector)) return 0;
  const empty =
    (!isObj(selector.matchLabels) || Object.keys(selector.matchLabels).length === 0) &&
    (!Array.isArray(selector.matchExpressions) || selector.matchExpressions.length === 0);
  if (empty) return 0;
  return pods.filter((p) => {
    if (namespaceOf(p.object) !== namespace) return false;
    const meta = p.object.metadata;
    const labels = isObj(meta) && isObj(meta.labels) ? (meta.labels as Record<string, string>) : {};
    return matchesLabelSelector(selector as LabelSelector, labels);
  }).length;
}
