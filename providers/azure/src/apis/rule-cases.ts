import { type RuleCase, valueCase, withValue } from '@nodewright/core/apis';
import { exampleAKSNodeClass } from './examples.js';

type Path = readonly (string | number)[];

function nc(
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
): RuleCase {
  return valueCase(exampleAKSNodeClass(), rule, ['spec', ...path], valid, invalid, where, message);
}

function specCase(rule: string, valid: object, invalid: object, where: string, message: string): RuleCase {
  const spec = exampleAKSNodeClass().spec;
  return {
    rule,
    valid: withValue(exampleAKSNodeClass(), ['spec'], { ...spec, ...valid }),
    invalid: withValue(exampleAKSNodeClass(), ['spec'], { ...spec, ...invalid }),
    path: where,
    message,
  };
}

/** Every AKSNodeClass rule the CRD enforces, by example. */
export const aksNodeClassRuleCases: readonly RuleCase[] = [
  nc(
    'vnetSubnetID is a subnet resource ID',
    ['vnetSubnetID'],
    '/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes',
    '/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet',
    'spec.vnetSubnetID',
    'must be a subnet resource ID: /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>',
  ),
  nc('osDiskSizeGB is at least 30', ['osDiskSizeGB'], 30, 29, 'spec.osDiskSizeGB', 'must be at least 30'),
  nc(
    'osDiskSizeGB is at most 2048',
    ['osDiskSizeGB'],
    2048,
    2049,
    'spec.osDiskSizeGB',
    'must be at most 2048',
  ),
  nc(
    'imageFamily is a known family',
    ['imageFamily'],
    'AzureLinux',
    'Windows2022',
    'spec.imageFamily',
    'must be one of Ubuntu, Ubuntu2204, Ubuntu2404, AzureLinux',
  ),
  nc('maxPods is at least 10', ['maxPods'], 10, 9, 'spec.maxPods', 'must be at least 10'),
  nc('maxPods is at most 250', ['maxPods'], 250, 251, 'spec.maxPods', 'must be at most 250'),
  specCase(
    'fipsMode FIPS needs an image family that has FIPS images',
    { fipsMode: 'FIPS', imageFamily: 'AzureLinux' },
    { fipsMode: 'FIPS', imageFamily: 'Ubuntu2404' },
    'spec.fipsMode',
    'fipsMode FIPS needs imageFamily AzureLinux or Ubuntu2204',
  ),
  nc(
    'tag keys have no characters ARM refuses',
    ['tags'],
    { team: 'a' },
    { 'team/a': 'a' },
    'spec.tags["team/a"]',
    'tag keys must not contain < > % & \\ ? /',
  ),
  nc(
    'tag values are at most 256 characters',
    ['tags'],
    { team: 'a'.repeat(256) },
    { team: 'a'.repeat(257) },
    'spec.tags.team',
    'tag values must be at most 256 characters',
  ),
  nc(
    'tags nodewright sets are restricted',
    ['tags'],
    { 'karpenter.sh_team': 'a' },
    { 'karpenter.sh_nodepool': 'a' },
    'spec.tags["karpenter.sh_nodepool"]',
    'tags karpenter.azure.com_cluster, karpenter.sh_nodepool, karpenter.sh_nodeclaim, karpenter.azure.com_aksnodeclass are restricted: nodewright sets them itself',
  ),
  nc(
    'imageGCHighThresholdPercent is above imageGCLowThresholdPercent',
    ['kubelet'],
    { imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 },
    { imageGCHighThresholdPercent: 80, imageGCLowThresholdPercent: 80 },
    'spec.kubelet.imageGCHighThresholdPercent',
    'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent',
  ),
];
