import type { z } from 'zod';

/**
 * A Kubernetes object kind nodewright understands: how to recognise it in a manifest and how
 * to parse it. Parsing applies the same defaults the API server would, and rejects what the
 * CRD (CEL included) would reject, so `validate` and the controllers agree with the cluster.
 */
export interface KindDefinition<Output = unknown> {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Parses a decoded manifest; on failure the zod issues carry the field path. */
  readonly schema: z.ZodType<Output>;
  /** Present for kinds whose CustomResourceDefinition nodewright ships. */
  readonly crd?: CrdDescription;
}

/** What a CRD needs beyond the schema: names, scope, subresources and columns. */
export interface CrdDescription {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly subresources?: {
    readonly status?: boolean;
    readonly scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  readonly printerColumns?: readonly PrinterColumn[];
}

/** One `additionalPrinterColumns` entry, as `kubectl get` shows it. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly priority?: number;
  readonly description?: string;
}

/** Key of a kind in a registry: `apiVersion` and `kind` joined by a slash. */
export function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

/**
 * The kinds one program knows. Built by a composition root from the core kinds and the kinds
 * each provider package contributes (NodeClasses), never from module-level state.
 */
export class KindRegistry {
  readonly #byKey = new Map<string, KindDefinition>();

  constructor(definitions: Iterable<KindDefinition>) {
    for (const def of definitions) {
      const key = kindKey(def.apiVersion, def.kind);
      if (this.#byKey.has(key)) throw new Error(`kind ${key} is registered twice`);
      this.#byKey.set(key, def);
    }
  }

  get(apiVersion: string, kind: string): KindDefinition | undefined {
    return this.#byKey.get(kindKey(apiVersion, kind));
  }

  /** The versions registered for a kind name, to explain an unknown apiVersion. */
  versionsOf(kind: string): string[] {
    return [...this.#byKey.values()].filter((d) => d.kind === kind).map((d) => d.apiVersion);
  }

  all(): KindDefinition[] {
    return [...this.#byKey.values()];
  }

  withCrds(): KindDefinition[] {
    return this.all().filter((d) => d.crd !== undefined);
  }
}
