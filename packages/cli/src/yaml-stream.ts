import { stringify } from 'yaml';

/**
 * Objects as one multi-document YAML stream, `---` between documents. Long strings are not
 * folded, so the output diffs cleanly and round-trips exactly.
 */
export function toYamlStream(objects: ReadonlyArray<unknown>): string {
  return joinYamlDocuments(objects.map((o) => stringify(o, { lineWidth: 0 })));
}

/**
 * Joins rendered YAML documents into one stream. A document that already opens with `---`
 * (possibly after comment lines, as generated CRDs do) keeps its own marker; the others get
 * one, so the stream never holds an empty document.
 */
export function joinYamlDocuments(documents: readonly string[]): string {
  return documents
    .map((d) => (d.endsWith('\n') ? d : `${d}\n`))
    .map((d, i) => (i === 0 || /^(#[^\n]*\n|\s*\n)*---(\s|$)/.test(d) ? d : `---\n${d}`))
    .join('');
}
