import type { ConversionWarning, KindDefinition, KindRegistry } from '@nodewright/core/apis';
import type { FieldError, Manifest, ManifestFs } from '@nodewright/core/manifests';

/** What the commands need from the rest of nodewright; built by `createCliServices`. */
export interface CliServices {
  /** Every kind the CLI understands, core and provider kinds alike. */
  readonly registry: KindRegistry;
  /** Upgrades old API versions; objects already current pass through unchanged. */
  convert(objects: ReadonlyArray<Record<string, unknown>>): {
    objects: Record<string, unknown>[];
    warnings: ConversionWarning[];
  };
  /** Advice for an apiVersion the registry lacks (e.g. "run nodewright convert"), if any. */
  unsupportedVersionHint(apiVersion: string, kind: string): string | undefined;
  /**
   * Advice for a field error of a current-version object that an older version explains, e.g.
   * `consolidationPolicy: WhenUnderutilized` in a v1 NodePool; undefined for none.
   */
  fieldHint(manifest: Manifest, error: FieldError): string | undefined;
  /** The CustomResourceDefinition of a kind, as a YAML document. */
  renderCrd(definition: KindDefinition): string;
  /** The file name `crds --out` writes a kind's CRD to. */
  crdFileName(definition: KindDefinition): string;
  readonly fs: ManifestFs & OutputFs;
}

/** The writes `crds --out` makes; paths are absolute. */
export interface OutputFs {
  mkdirp(path: string): Promise<void>;
  writeFile(path: string, text: string): Promise<void>;
}
