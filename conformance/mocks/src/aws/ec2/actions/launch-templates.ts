import { str, strs, struct, structs } from '../../query/form.js';
import type { XmlObject } from '../../query/xml.js';
import type { Ec2Action, Ec2Context } from '../context.js';
import { Ec2Error, missingParameter, notFound } from '../errors.js';
import { matchesFilters, readFilters, tagFieldValues, tagSet, tagsFor } from '../filters.js';
import { paginate } from '../pagination.js';
import type { Ec2LaunchTemplate } from '../state.js';

const NAME = /^[a-zA-Z0-9().\-/_]{3,128}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function templateXml(lt: Ec2LaunchTemplate, ctx: Ec2Context): XmlObject {
  return {
    launchTemplateId: lt.id,
    launchTemplateName: lt.name,
    createTime: new Date(lt.createTime),
    createdBy: `arn:aws:iam::${ctx.accountId}:role/nodewright`,
    defaultVersionNumber: 1,
    latestVersionNumber: 1,
    tagSet: lt.tags.size > 0 ? tagSet(lt.tags) : undefined,
  };
}

/**
 * CreateLaunchTemplate: stores `LaunchTemplateData` as sent (user data, AMI, security groups,
 * instance profile, block devices, metadata options, tag specifications are read at launch).
 */
export const createLaunchTemplate: Ec2Action = (request, ctx) => {
  const name = str(request, 'LaunchTemplateName');
  if (name === undefined) throw missingParameter('LaunchTemplateName');
  if (!NAME.test(name)) {
    throw new Ec2Error(
      'InvalidLaunchTemplateName.MalformedException',
      `LaunchTemplateName: '${name}' must be 3-128 characters of letters, digits and ( ) . - / _`,
    );
  }
  const data = struct(request, 'LaunchTemplateData');
  if (!data) throw missingParameter('LaunchTemplateData');
  const userData = str(data, 'UserData');
  if (userData !== undefined && !BASE64.test(userData)) {
    throw new Ec2Error(
      'InvalidUserData.Malformed',
      'LaunchTemplateData.UserData: Invalid BASE64 encoding of user data.',
    );
  }
  if (ctx.state.findLaunchTemplate({ name })) {
    throw new Ec2Error(
      'InvalidLaunchTemplateName.AlreadyExistsException',
      `Launch template name already in use: ${name}`,
    );
  }
  const lt: Ec2LaunchTemplate = {
    id: ctx.state.nextId('lt'),
    name,
    createTime: ctx.clock.now(),
    data,
    tags: tagsFor(structs(request, 'TagSpecification'), 'launch-template'),
  };
  ctx.state.launchTemplates.set(lt.id, lt);
  return { launchTemplate: templateXml(lt, ctx) };
};

function templateFields(lt: Ec2LaunchTemplate, name: string): readonly string[] | undefined {
  if (name === 'launch-template-name') return [lt.name];
  if (name === 'create-time') return [new Date(lt.createTime).toISOString()];
  return tagFieldValues(lt.tags, name);
}

export const describeLaunchTemplates: Ec2Action = (request, ctx) => {
  const ids = strs(request, 'LaunchTemplateId');
  const names = strs(request, 'LaunchTemplateName');
  for (const id of ids) if (!ctx.state.launchTemplates.has(id)) throw notFound.launchTemplateId(id);
  for (const n of names) if (!ctx.state.findLaunchTemplate({ name: n })) throw notFound.launchTemplateName();
  const filters = readFilters(request);
  const matched = [...ctx.state.launchTemplates.values()].filter(
    (lt) =>
      (ids.length === 0 || ids.includes(lt.id)) &&
      (names.length === 0 || names.includes(lt.name)) &&
      matchesFilters(lt, filters, templateFields),
  );
  const page = paginate('DescribeLaunchTemplates', matched, request, { min: 1, max: 200 });
  return { launchTemplates: page.items.map((lt) => templateXml(lt, ctx)), nextToken: page.nextToken };
};

export const deleteLaunchTemplate: Ec2Action = (request, ctx) => {
  const id = str(request, 'LaunchTemplateId');
  const name = str(request, 'LaunchTemplateName');
  if (id === undefined && name === undefined)
    throw missingParameter('LaunchTemplateId or LaunchTemplateName');
  const lt = ctx.state.findLaunchTemplate(id !== undefined ? { id } : { name: name ?? '' });
  if (!lt) throw id !== undefined ? notFound.launchTemplateId(id) : notFound.launchTemplateName();
  ctx.state.launchTemplates.delete(lt.id);
  return { launchTemplate: templateXml(lt, ctx) };
};
