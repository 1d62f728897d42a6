/**
 * Where a decoded object came from, so every error about it can cite `file:line` and the
 * field's own line.
 */
export interface ManifestSource {
  /** The input as the user named it (`-` is shown as `<stdin>`; directory entries as `dir/name`). */
  readonly file: string;
  /** 0-based index of the YAML document within the file. */
  readonly document: number;
  /** 0-based index within a `List` or array document; absent for a plain object document. */
  readonly item?: number;
  /** 1-based position of the object among all objects of the file, List items counted singly. */
  readonly ordinal: number;
  /** 1-based line where the object starts. */
  readonly line: number;
  /**
   * 1-based line of the field at `segments` (object keys and list indices), or of its nearest
   * ancestor present in the file when the field itself is absent (e.g. a required field).
   * Undefined where lines do not apply, e.g. for an object a command rewrote.
   */
  lineOf(segments: readonly PropertyKey[]): number | undefined;
}

/** A decoded Kubernetes object with a string apiVersion and kind, and its source. */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  /** `metadata.name`, when it is a non-empty string. */
  readonly name?: string;
  /** `Kind/name`, or `Kind/<unnamed #N>` with N the object's ordinal in its file. */
  readonly id: string;
  readonly object: Readonly<Record<string, unknown>>;
  readonly source: ManifestSource;
}

/**
 * A problem with an input: a file that cannot be read, a YAML syntax error, a document that
 * is not an object, or a field that fails validation. `object` and `path` are set where
 * known; `line` and `column` are 1-based.
 */
export interface ManifestError {
  readonly file: string;
  readonly message: string;
  readonly object?: string;
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
}

/** The objects read from a set of inputs, and what went wrong while reading them. */
export interface ManifestSet {
  readonly manifests: Manifest[];
  readonly errors: ManifestError[];
}

/** The CLI contract's id of an object: `Kind/name`, `Kind/<unnamed #N>` without a name. */
export function objectId(kind: string, name: string | undefined, ordinal: number): string {
  return `${kind}/${name ?? `<unnamed #${ordinal}>`}`;
}
