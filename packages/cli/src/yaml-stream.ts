import { stringify } from 'yaml';

/**
 * Objects as one multi-document YAML stream, `---` between documents. Long strings are not
 * folded, so the output diffs cleanly and round-trips exactly.
 */
export function toYamlStream(objects: ReadonlyArray<unknown>): string {
  return joinYamlDocuments(objects.map((o) => stringify(o, { lineWidth: 0 })));
}

/** Joins rendered YAML documents into one stream; each may or may not start with `---`. */
export function joinYamlDocuments(documents: readonly string[]): string {
  return documents
    .map((d) => d.replace(/^---\n/, ''))
    .map((d) => (d.endsWith('\n') ? d : `${d}\n`))
    .join('---\n');
}
