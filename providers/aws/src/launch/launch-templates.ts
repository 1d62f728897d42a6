import type { Clock } from '@nodewright/core/clock';
import type { Ec2Api } from '../sdk/index.js';
import { awsErrorCode } from './aws-error.js';
import type { LaunchTemplateSpec } from './launch-template-data.js';

/** How to build LaunchTemplates. */
export interface LaunchTemplatesDeps {
  readonly ec2: Ec2Api;
  readonly clock: Clock;
  /** How long a template known to exist is trusted before it is looked up again; default 10 min. */
  readonly ttlMs?: number;
}

interface Known {
  readonly id: string | undefined;
  readonly at: number;
}

/**
 * Finds or creates launch templates by name. Names come from a hash of the data, so the same
 * configuration always maps to one template: after a restart DescribeLaunchTemplates finds it
 * again, and a concurrent creator's AlreadyExists counts as found. Lookups in flight are shared.
 */
export class LaunchTemplates {
  readonly #ec2: Ec2Api;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #known = new Map<string, Known>();
  readonly #inFlight = new Map<string, Promise<string | undefined>>();

  constructor(deps: LaunchTemplatesDeps) {
    this.#ec2 = deps.ec2;
    this.#clock = deps.clock;
    this.#ttlMs = deps.ttlMs ?? 10 * 60_000;
  }

  /** Makes sure the template exists; resolves to its id when EC2 reported one. */
  async ensure(spec: LaunchTemplateSpec): Promise<string | undefined> {
    const known = this.#known.get(spec.name);
    if (known !== undefined && this.#clock.now() - known.at < this.#ttlMs) return known.id;
    const pending = this.#inFlight.get(spec.name);
    if (pending !== undefined) return pending;
    const lookup = this.#findOrCreate(spec).finally(() => this.#inFlight.delete(spec.name));
    this.#inFlight.set(spec.name, lookup);
    return lookup;
  }

  /** Forgets a template (CreateFleet said it no longer exists), so the next ensure recreates it. */
  forget(name: string): void {
    this.#known.delete(name);
  }

  async #findOrCreate(spec: LaunchTemplateSpec): Promise<string | undefined> {
    const found = await this.#find(spec.name);
    if (found !== undefined) return this.#remember(spec.name, found);
    try {
      const out = await this.#ec2.createLaunchTemplate({
        LaunchTemplateName: spec.name,
        LaunchTemplateData: spec.data,
        TagSpecifications: [{ ResourceType: 'launch-template', Tags: spec.tags }],
      });
      return this.#remember(spec.name, out.LaunchTemplate?.LaunchTemplateId ?? '');
    } catch (err) {
      if (awsErrorCode(err) !== 'InvalidLaunchTemplateName.AlreadyExistsException') throw err;
      return this.#remember(spec.name, (await this.#find(spec.name)) ?? '');
    }
  }

  async #find(name: string): Promise<string | undefined> {
    try {
      const out = await this.#ec2.describeLaunchTemplates({ LaunchTemplateNames: [name] });
      const template = out.LaunchTemplates?.find((t) => t.LaunchTemplateName === name);
      return template === undefined ? undefined : (template.LaunchTemplateId ?? '');
    } catch (err) {
      if (awsErrorCode(err) === 'InvalidLaunchTemplateName.NotFoundException') return undefined;
      throw err;
    }
  }

  #remember(name: string, id: string): string | undefined {
    const value = id === '' ? undefined : id;
    this.#known.set(name, { id: value, at: this.#clock.now() });
    return value;
  }
}
