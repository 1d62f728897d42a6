import { canonicalFieldPath } from './field-path.js';

/** One side's verdict on a manifest: nodewright's schema or the API server. */
export interface SideVerdict {
  readonly accepts: boolean;
  /** Where and why it refused (empty when it accepts). */
  readonly problems: readonly { readonly field: string; readonly message: string }[];
}

/** How the two sides parted on one manifest. */
export interface Disagreement {
  readonly kind:
    | 'only nodewright accepts'
    | 'only the API server accepts'
    | 'both refuse at unrelated fields';
  /**
   * The kind plus the refusing fields with list indices generalised (`[*]`): manifests with
   * the same signature are the same disagreement, so a report can keep one example of each.
   */
  readonly signature: string;
  /** Both sides' verdicts, for a failure message. */
  readonly description: string;
}

const related = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);

/**
 * Compares nodewright's and the server's verdict on one manifest: they agree when both accept,
 * or both refuse with at least one problem at the same field or at fields one of which
 * contains the other (a CEL rule on a map reports the map, zod the entry).
 */
export function compareVerdicts(nodewright: SideVerdict, server: SideVerdict): Disagreement | undefined {
  const ours = nodewright.problems.map((p) => canonicalFieldPath(p.field));
  const theirs = server.problems.map((p) => canonicalFieldPath(p.field));
  let kind: Disagreement['kind'];
  let fields: string[];
  if (nodewright.accepts && server.accepts) return undefined;
  if (nodewright.accepts) {
    kind = 'only nodewright accepts';
    fields = theirs;
  } else if (server.accepts) {
    kind = 'only the API server accepts';
    fields = ours;
  } else {
    if (ours.some((a) => theirs.some((b) => related(a, b) || related(b, a)))) return undefined;
    kind = 'both refuse at unrelated fields';
    fields = [...ours, ...theirs];
  }
  const generalised = [...new Set(fields.map((f) => f.replace(/\[\d+\]/g, '[*]')))].sort();
  return {
    kind,
    signature: `${kind}: ${generalised.join(', ')}`,
    description: [
      `${kind}:`,
      `  nodewright: ${describe(nodewright)}`,
      `  API server: ${describe(server)}`,
    ].join('\n'),
  };
}

function describe(side: SideVerdict): string {
  return side.accepts ? 'accepts' : side.problems.map((p) => `${p.field}: ${p.message}`).join(' | ');
}
