import { allPages } from '../instancetype/pages.js';
import type { Ec2Api } from '../sdk/index.js';
import { awsErrorCode } from './aws-error.js';
import { clusterTagKey, TagKeys } from './tags.js';

const GoneCodes = new Set([
  'InvalidLaunchTemplateId.NotFound',
  'InvalidLaunchTemplateName.NotFoundException',
]);

/**
 * Deletes the launch templates made for one EC2NodeClass of this cluster: those tagged
 * `karpenter.k8s.aws/ec2nodeclass=<name>` and `kubernetes.io/cluster/<cluster>=owned` (every
 * page of DescribeLaunchTemplates). A template already gone counts as deleted.
 * @returns the names deleted.
 * @throws the EC2 error of any other failure.
 */
export async function deleteNodeClassLaunchTemplates(
  ec2: Pick<Ec2Api, 'describeLaunchTemplates' | 'deleteLaunchTemplate'>,
  clusterName: string,
  nodeClassName: string,
): Promise<string[]> {
  const templates = await allPages(
    'DescribeLaunchTemplates',
    (input) => ec2.describeLaunchTemplates(input),
    {
      Filters: [
        { Name: `tag:${TagKeys.EC2NodeClass}`, Values: [nodeClassName] },
        { Name: `tag:${clusterTagKey(clusterName)}`, Values: ['owned'] },
      ],
    },
    (o) => o.LaunchTemplates,
  );
  const deleted: string[] = [];
  for (const t of templates) {
    if (t.LaunchTemplateId === undefined) continue;
    try {
      await ec2.deleteLaunchTemplate({ LaunchTemplateId: t.LaunchTemplateId });
    } catch (error) {
      if (!GoneCodes.has(awsErrorCode(error) ?? '')) throw error;
    }
    deleted.push(t.LaunchTemplateName ?? t.LaunchTemplateId);
  }
  return deleted;
}
