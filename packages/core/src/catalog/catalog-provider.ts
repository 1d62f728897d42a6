import type { InstanceTypeCatalog } from '../apis/catalog/instance-type-catalog.js';

/**
 * A catalog a package ships, picked by name (`nodewright schedule --catalog kwok`). Provider
 * packages export one; a composition root collects them in a {@link CatalogProviders}.
 */
export interface CatalogProvider {
  /** What users type after `--catalog`; unique within one lookup. */
  readonly name: string;
  /** One line for help texts, e.g. what the types are modelled on. */
  readonly description: string;
  /**
   * Builds the catalog. Called only when the catalog is picked, so unused ones cost nothing; it
   * may return a promise, so a provider can also load the code that builds it only then.
   */
  catalog(): InstanceTypeCatalog | Promise<InstanceTypeCatalog>;
}

/** The named catalogs one program offers, built by its composition root (never module state). */
export class CatalogProviders {
  readonly #byName = new Map<string, CatalogProvider>();

  /** @throws Error when two providers share a name, which is a wiring mistake. */
  constructor(providers: Iterable<CatalogProvider>) {
    for (const provider of providers) {
      if (this.#byName.has(provider.name)) throw new Error(`catalog ${provider.name} is provided twice`);
      this.#byName.set(provider.name, provider);
    }
  }

  get(name: string): CatalogProvider | undefined {
    return this.#byName.get(name);
  }

  /** Every name, sorted, for help texts and "unknown catalog" messages. */
  names(): string[] {
    return [...this.#byName.keys()].sort();
  }

  all(): CatalogProvider[] {
    return this.names().map((name) => this.#byName.get(name)!);
  }
}
