import { type RuleCase, specCase as specRuleCase, valueCase } from '@nodewright/core/apis';
import { exampleGCENodeClass } from './examples.js';

type Path = readonly (string | number)[];

const nc = (
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
  serverPath?: string,
) => valueCase(exampleGCENodeClass(), rule, ['spec', ...path], valid, invalid, where, message, serverPath);
const specCase = (rule: string, valid: object, invalid: object, where: string, message: string) =>
  specRuleCase(exampleGCENodeClass, rule, valid, invalid, where, message);

const boot = { category: 'pd-balanced', sizeGiB: 100, boot: true };
const image = (term: object) => ({ imageFamily: 'Custom', imageSelectorTerms: [term] });

/** Every GCENodeClass rule the CRD enforces, by example. */
export const gceNodeClassRuleCases: readonly RuleCase[] = [
  specCase(
    'imageSelectorTerms has at least one term',
    image({ id: 'my-image' }),
    { imageFamily: 'Custom', imageSelectorTerms: [] },
    'spec.imageSelectorTerms',
    'must have at least one term',
  ),
  specCase(
    'an alias term stands alone',
    { imageFamily: 'Custom', imageSelectorTerms: [{ family: 'cos-stable' }, { id: 'my-image' }] },
    { imageSelectorTerms: [{ alias: 'cos@latest' }, { id: 'my-image' }] },
    'spec.imageSelectorTerms',
    'an alias term must be the only image selector term',
  ),
  specCase(
    'a term sets exactly one of alias, id and family',
    image({ family: 'cos-stable', project: 'cos-cloud' }),
    image({ family: 'cos-stable', id: 'my-image' }),
    'spec.imageSelectorTerms[0]',
    'set exactly one of alias, id and family in an image selector term',
  ),
  specCase(
    'project goes with id or family, not alias',
    image({ id: 'my-image', project: 'my-project' }),
    { imageSelectorTerms: [{ alias: 'cos@latest', project: 'cos-cloud' }] },
    'spec.imageSelectorTerms[0].project',
    'project cannot be combined with alias',
  ),
  nc(
    'an alias is family@latest or family@version',
    ['imageSelectorTerms', 0, 'alias'],
    'ubuntu@v20261101',
    'cos',
    'spec.imageSelectorTerms[0].alias',
    'must be an alias such as cos@latest or ubuntu@v20261101',
  ),
  specCase(
    'imageFamily is required without an alias',
    image({ family: 'cos-stable' }),
    { imageSelectorTerms: [{ family: 'cos-stable' }] },
    'spec.imageFamily',
    'imageFamily is required unless imageSelectorTerms uses an alias',
  ),
  specCase(
    "imageFamily matches the alias's family",
    { imageFamily: 'ContainerOptimizedOS', imageSelectorTerms: [{ alias: 'cos@latest' }] },
    { imageFamily: 'Ubuntu', imageSelectorTerms: [{ alias: 'cos@latest' }] },
    'spec.imageFamily',
    "imageFamily must match the alias's family, or be Custom",
  ),
  // Disks.
  nc(
    'exactly one boot disk',
    ['disks'],
    [boot, { category: 'local-ssd', sizeGiB: 375 }],
    [{ category: 'pd-ssd', sizeGiB: 100 }],
    'spec.disks',
    'exactly one disk must be the boot disk',
  ),
  nc(
    'disks are at least 10 GiB',
    ['disks'],
    [{ ...boot, sizeGiB: 10 }],
    [{ ...boot, sizeGiB: 9 }],
    'spec.disks[0].sizeGiB',
    'must be at least 10',
  ),
  nc(
    'a local SSD is not the boot disk',
    ['disks'],
    [boot, { category: 'local-ssd', sizeGiB: 375 }],
    [{ category: 'local-ssd', sizeGiB: 375, boot: true }],
    'spec.disks[0].boot',
    'a local SSD cannot be the boot disk',
  ),
  nc(
    'a local SSD is 375 GiB',
    ['disks'],
    [boot, { category: 'local-ssd', sizeGiB: 375 }],
    [boot, { category: 'local-ssd', sizeGiB: 100 }],
    'spec.disks[1].sizeGiB',
    'a local SSD is 375 GiB',
  ),
  nc(
    'disk categories are GCE disk types',
    ['disks'],
    [{ ...boot, category: 'hyperdisk-balanced' }],
    [{ ...boot, category: 'gp3' }],
    'spec.disks[0].category',
    'must be one of pd-standard, pd-balanced, pd-ssd, pd-extreme, hyperdisk-balanced, hyperdisk-throughput, hyperdisk-extreme, local-ssd',
  ),
  // Network.
  nc(
    'network tags are unique',
    ['networkConfig', 'networkTags'],
    ['nodes', 'web'],
    ['nodes', 'nodes'],
    'spec.networkConfig.networkTags',
    'network tags must be unique',
  ),
  nc(
    'network tags are GCE tag names',
    ['networkConfig', 'networkTags'],
    ['nodes'],
    ['Nodes'],
    'spec.networkConfig.networkTags[0]',
    'must be a network tag: lowercase letters, digits and -',
  ),
  // Labels and metadata.
  nc(
    'label keys are GCE label keys',
    ['labels'],
    { team: 'a' },
    { Team: 'a' },
    'spec.labels.Team',
    'label keys must be a lowercase letter, then at most 62 lowercase letters, digits, _ or -',
    'spec.labels',
  ),
  nc(
    'label values are GCE label values',
    ['labels'],
    { team: 'a-1' },
    { team: 'A/1' },
    'spec.labels.team',
    'label values must be at most 63 lowercase letters, digits, _ or -',
    'spec.labels',
  ),
  nc(
    'labels nodewright sets are restricted',
    ['labels'],
    { team: 'a' },
    { 'karpenter-sh-nodepool': 'x' },
    'spec.labels.karpenter-sh-nodepool',
    'labels goog-k8s-cluster-name, karpenter-sh-nodepool, karpenter-sh-nodeclaim, karpenter-k8s-gcp-gcenodeclass are restricted: nodewright sets them itself',
    'spec.labels',
  ),
  nc(
    'metadata nodewright writes is restricted',
    ['metadata'],
    { 'enable-oslogin': 'true' },
    { 'kube-labels': 'x' },
    'spec.metadata.kube-labels',
    'metadata keys cluster-name, kube-labels, kube-taints, kube-startup-taints, kubelet-config, user-data are restricted: nodewright sets them itself',
    'spec.metadata',
  ),
  nc(
    'metadata keys are GCE metadata keys',
    ['metadata'],
    { ok_key: 'v' },
    { 'a.b': 'v' },
    'spec.metadata["a.b"]',
    'metadata keys must be 1 to 128 letters, digits, _ or -',
    'spec.metadata',
  ),
  // Kubelet.
  nc(
    'kubeReserved keys are resources',
    ['kubeletConfiguration', 'kubeReserved'],
    { cpu: '100m' },
    { gpu: '1' },
    'spec.kubeletConfiguration.kubeReserved.gpu',
    'valid keys for kubeReserved are cpu, memory, ephemeral-storage, pid',
    'spec.kubeletConfiguration.kubeReserved',
  ),
  nc(
    'systemReserved keys are resources',
    ['kubeletConfiguration', 'systemReserved'],
    { memory: '1Gi' },
    { gpu: '1' },
    'spec.kubeletConfiguration.systemReserved.gpu',
    'valid keys for systemReserved are cpu, memory, ephemeral-storage, pid',
    'spec.kubeletConfiguration.systemReserved',
  ),
  nc(
    'evictionHard keys are signals',
    ['kubeletConfiguration', 'evictionHard'],
    { 'memory.available': '5%' },
    { 'memory.free': '5%' },
    'spec.kubeletConfiguration.evictionHard["memory.free"]',
    'valid keys for evictionHard are memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available',
    'spec.kubeletConfiguration.evictionHard',
  ),
  nc(
    'serviceAccount is an email',
    ['serviceAccount'],
    'default',
    'nodes',
    'spec.serviceAccount',
    'must be a service account email or default',
  ),
];
