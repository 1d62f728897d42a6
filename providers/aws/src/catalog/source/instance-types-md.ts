/** One instance type of Karpenter's generated reference page: its labels and resources tables. */
export interface InstanceTypeDoc {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly resources: Readonly<Record<string, string>>;
}

const Heading = /^### `([^`]+)`\s*$/;
const Row = /^\s*\|([^|]+)\|([^|]*)\|\s*$/;

/**
 * Reads Karpenter's `instance-types.md` (website/content/en/<version>/reference): for each
 * ``### `type` `` heading, the `| Label | Value |` rows after `#### Labels` and the
 * `| Resource | Quantity |` rows after `#### Resources`. Header and separator rows are skipped.
 * @throws Error when the page holds no instance type.
 */
export function parseInstanceTypesMarkdown(text: string, file = 'instance-types.md'): InstanceTypeDoc[] {
  const docs: { name: string; labels: Record<string, string>; resources: Record<string, string> }[] = [];
  let table: Record<string, string> | undefined;
  for (const line of text.split('\n')) {
    const heading = Heading.exec(line);
    if (heading?.[1] !== undefined) {
      docs.push({ name: heading[1], labels: {}, resources: {} });
      table = undefined;
      continue;
    }
    const doc = docs.at(-1);
    if (doc === undefined) continue;
    if (/^#### Labels\s*$/.test(line)) table = doc.labels;
    else if (/^#### Resources\s*$/.test(line)) table = doc.resources;
    else if (line.startsWith('#')) table = undefined;
    else if (table !== undefined) {
      const row = Row.exec(line);
      const key = row?.[1]?.trim();
      if (key === undefined || key === 'Label' || key === 'Resource' || /^-+$/.test(key)) continue;
      table[key] = row?.[2]?.trim() ?? '';
    }
  }
  if (docs.length === 0) throw new Error(`${file}: no "### \`type\`" sections found`);
  return docs;
}
