import type { Image, SecurityGroup, Subnet } from '@aws-sdk/client-ec2';
import type { Clock } from '@nodewright/core/clock';
import { z } from 'zod';
import { type EC2NodeClass, ec2NodeClassSpecSchema, resolvedAmiFamily } from '../apis/index.js';
import { allPages } from '../instancetype/pages.js';
import { awsErrorCode, errorMessage } from '../launch/aws-error.js';
import type { Ec2Api, SsmApi } from '../sdk/index.js';
import { type AmiQuery, amiQueries, isDeprecated, selectAmis, ssmImageQuery } from './amis.js';
import type { NodeClassFacts, ResolvedSecurityGroup, ResolvedSubnet } from './facts.js';
import { type SelectorQuery, securityGroupQueries, subnetQueries } from './filters.js';
import type { InstanceProfileOutcome } from './instance-profile.js';

export interface NodeClassResolverDeps {
  readonly ec2: Ec2Api;
  /** Reads the AMI ids `ssmParameter` terms name. */
  readonly ssm: SsmApi;
  readonly clock: Clock;
  /** Creates or checks the instance profile (InstanceProfiles); its problems go into the facts. */
  readonly instanceProfiles: { reconcile(nodeClass: EC2NodeClass): Promise<InstanceProfileOutcome> };
  /**
   * The cluster's Kubernetes minor version (`1.31`), which EKS image names carry; asked only
   * when an alias is resolved.
   */
  readonly kubernetesVersion: () => Promise<string>;
}

/** A Describe* call failed; names the call and the NodeClass so the reconcile error says which. */
export class NodeClassResolutionError extends Error {
  override readonly name = 'NodeClassResolutionError';
}

const list = (queries: readonly { describes: string }[]) => queries.map((q) => q.describes).join('; ');

/**
 * Resolves an EC2NodeClass's selectors against EC2 (DescribeSubnets, DescribeSecurityGroups,
 * DescribeImages, every page; terms ORed, fields of a term ANDed; `ssmParameter` terms read with
 * SSM GetParameter first) into NodeClassFacts, with a
 * message for each list that matched nothing. Subnets are ordered by free addresses (most
 * first), then id; security groups by id; AMIs as selectAmis orders them. The instance profile
 * is reconciled alongside (InstanceProfiles: created for a role, checked for an instanceProfile);
 * an IAM failure is a problem in the facts, not a throw.
 * @throws NodeClassResolutionError when an EC2 call fails (the previous status should stand).
 */
export class NodeClassResolver {
  readonly #deps: NodeClassResolverDeps;

  constructor(deps: NodeClassResolverDeps) {
    this.#deps = deps;
  }

  async resolve(nodeClass: EC2NodeClass): Promise<NodeClassFacts> {
    const spec = nodeClass.spec;
    const name = nodeClass.metadata.name ?? '';
    const [subnets, securityGroups, amis, profile] = await Promise.all([
      this.#subnets(name, spec.subnetSelectorTerms),
      this.#securityGroups(name, spec.securityGroupSelectorTerms),
      this.#amis(name, spec.amiSelectorTerms),
      this.#deps.instanceProfiles.reconcile(nodeClass),
    ]);
    const validation = ec2NodeClassSpecSchema.safeParse(spec);
    const family = resolvedAmiFamily(spec);
    const validationProblem = !validation.success
      ? `spec is invalid: ${z.prettifyError(validation.error)}`
      : family === undefined
        ? 'spec.amiFamily is unset and no alias implies one'
        : undefined;
    const instanceProfile = profile.name;
    return {
      subnets: subnets.items,
      securityGroups: securityGroups.items,
      amis: amis.items,
      ...(instanceProfile !== undefined ? { instanceProfile } : {}),
      ...(spec.instanceProfile === undefined && spec.role !== undefined
        ? { instanceProfileDerivedFromRole: spec.role }
        : {}),
      problems: {
        ...(subnets.problem !== undefined ? { subnets: subnets.problem } : {}),
        ...(securityGroups.problem !== undefined ? { securityGroups: securityGroups.problem } : {}),
        ...(amis.problem !== undefined ? { amis: amis.problem } : {}),
        ...(profile.problem !== undefined ? { instanceProfile: profile.problem } : {}),
        ...(validationProblem !== undefined ? { validation: validationProblem } : {}),
      },
    };
  }

  async #subnets(
    nodeClass: string,
    terms: EC2NodeClass['spec']['subnetSelectorTerms'],
  ): Promise<{ items: ResolvedSubnet[]; problem?: string }> {
    const queries = subnetQueries(terms);
    const found = new Map<string, Subnet>();
    for (const q of queries) {
      for (const s of await this.#call(
        nodeClass,
        'DescribeSubnets',
        q,
        (i) => this.#deps.ec2.describeSubnets(i),
        (o) => o.Subnets,
      )) {
        if (s.SubnetId !== undefined && s.AvailabilityZone !== undefined) found.set(s.SubnetId, s);
      }
    }
    const items = [...found.values()]
      .sort(
        (a, b) =>
          (b.AvailableIpAddressCount ?? 0) - (a.AvailableIpAddressCount ?? 0) ||
          ((a.SubnetId ?? '') < (b.SubnetId ?? '') ? -1 : 1),
      )
      .map((s) => ({
        id: s.SubnetId ?? '',
        zone: s.AvailabilityZone ?? '',
        ...(s.AvailabilityZoneId !== undefined ? { zoneID: s.AvailabilityZoneId } : {}),
      }));
    return items.length > 0
      ? { items }
      : { items, problem: `no subnets matched subnetSelectorTerms (${list(queries)})` };
  }

  async #securityGroups(
    nodeClass: string,
    terms: EC2NodeClass['spec']['securityGroupSelectorTerms'],
  ): Promise<{ items: ResolvedSecurityGroup[]; problem?: string }> {
    const queries = securityGroupQueries(terms);
    const found = new Map<string, SecurityGroup>();
    for (const q of queries) {
      const groups = await this.#call(
        nodeClass,
        'DescribeSecurityGroups',
        q,
        (i) => this.#deps.ec2.describeSecurityGroups(i),
        (o) => o.SecurityGroups,
      );
      for (const g of groups) if (g.GroupId !== undefined) found.set(g.GroupId, g);
    }
    const items = [...found.values()]
      .sort((a, b) => ((a.GroupId ?? '') < (b.GroupId ?? '') ? -1 : 1))
      .map((g) => ({ id: g.GroupId ?? '', ...(g.GroupName !== undefined ? { name: g.GroupName } : {}) }));
    return items.length > 0
      ? { items }
      : { items, problem: `no security groups matched securityGroupSelectorTerms (${list(queries)})` };
  }

  async #amis(
    nodeClass: string,
    terms: EC2NodeClass['spec']['amiSelectorTerms'],
  ): Promise<{ items: ReturnType<typeof selectAmis>; problem?: string }> {
    const needsVersion = terms.some((t) => t.alias !== undefined);
    const version = needsVersion ? await this.#deps.kubernetesVersion() : '';
    let built: { queries: AmiQuery[]; ssmParameters: string[] };
    try {
      built = amiQueries(terms, version);
    } catch (error) {
      return { items: [], problem: error instanceof Error ? error.message : String(error) };
    }
    const unresolved: string[] = [];
    for (const parameter of built.ssmParameters) {
      const read = await this.#ssmImageId(nodeClass, parameter);
      if ('imageId' in read) built.queries.push(ssmImageQuery(parameter, read.imageId));
      else unresolved.push(read.problem);
    }
    const found: Array<{ query: AmiQuery; images: Image[] }> = [];
    for (const query of built.queries) {
      const images = await allPages(
        'DescribeImages',
        (i) => this.#deps.ec2.describeImages(i),
        query.input,
        (o) => o.Images,
      ).catch((error: unknown) => {
        throw new NodeClassResolutionError(
          `EC2NodeClass ${nodeClass}: DescribeImages for ${query.describes} failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      });
      found.push({ query, images });
    }
    const now = this.#deps.clock.now();
    const items = selectAmis(found, now);
    if (items.length > 0) return { items };
    const deprecated = found.reduce(
      (n, f) => n + (f.query.pinned ? 0 : f.images.filter((i) => isDeprecated(i, now)).length),
      0,
    );
    const parts = [
      built.queries.length > 0
        ? `no AMIs matched amiSelectorTerms (${list(built.queries)})`
        : 'no AMIs matched amiSelectorTerms',
      ...(deprecated > 0 ? [`${deprecated} deprecated image(s) skipped; pin one by id to use it`] : []),
      ...unresolved,
    ];
    return { items, problem: parts.join('; ') };
  }

  /**
   * The AMI id an SSM parameter holds. A parameter that does not exist (ParameterNotFound) or
   * holds no `ami-` id is a problem for the status; any other failure throws, as EC2's do.
   */
  async #ssmImageId(
    nodeClass: string,
    parameter: string,
  ): Promise<{ imageId: string } | { problem: string }> {
    let value: string | undefined;
    try {
      value = (await this.#deps.ssm.getParameter({ Name: parameter })).Parameter?.Value;
    } catch (error) {
      if (awsErrorCode(error) === 'ParameterNotFound') {
        return { problem: `ssmParameter ${parameter} does not exist` };
      }
      throw new NodeClassResolutionError(
        `EC2NodeClass ${nodeClass}: GetParameter ${parameter} failed: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    const imageId = value?.trim();
    return imageId?.startsWith('ami-')
      ? { imageId }
      : { problem: `ssmParameter ${parameter} holds ${JSON.stringify(value ?? '')}, not an AMI id` };
  }

  async #call<O extends { NextToken?: string | undefined }, T>(
    nodeClass: string,
    operation: string,
    query: SelectorQuery,
    call: (input: { Filters: SelectorQuery['filters'] }) => Promise<O>,
    items: (o: O) => T[] | undefined,
  ): Promise<T[]> {
    try {
      return await allPages(operation, call, { Filters: query.filters }, items);
    } catch (error) {
      throw new NodeClassResolutionError(
        `EC2NodeClass ${nodeClass}: ${operation} for ${query.describes} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}
