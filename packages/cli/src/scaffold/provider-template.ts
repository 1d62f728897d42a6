import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProviderNames } from './provider-names.js';

/**
 * The template of `nodewright new provider`: a working provider named `acme`, shipped with the
 * CLI (templates/provider, one level above both src/ and dist/). Its placeholders are spellings
 * of that name in strings and prose only, never in identifiers or import paths, so substituting
 * them keeps the code compiling and formatted.
 */
export const ProviderTemplateDir = new URL('../../templates/provider/', import.meta.url);

/** Template files stored under another name, because npm drops them from published packages. */
const Renamed: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** The placeholder spellings, most specific first (`acmenodeclass` before `acme`). */
const Placeholders = /acmenodeclass|Acme|acme/g;

/**
 * A template text with the provider's names in place of the placeholders, in one pass, so a
 * name that itself contains a placeholder (`acme-cloud`) is not substituted again.
 */
export function substitute(text: string, names: ProviderNames): string {
  const by: Readonly<Record<string, string>> = {
    acmenodeclass: `${names.compact}nodeclass`,
    Acme: names.pascal,
    acme: names.name,
  };
  return text.replace(Placeholders, (placeholder) => by[placeholder] ?? placeholder);
}

/** One file of the generated package: its path (with `/`) inside the package, and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/** Every template file with the names substituted in its path and text, sorted by path. */
export async function templateFiles(
  names: ProviderNames,
  dir: URL = ProviderTemplateDir,
): Promise<GeneratedFile[]> {
  const root = fileURLToPath(dir);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: GeneratedFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const path = relative(root, full).split(sep).join('/');
    files.push({
      path: substitute(Renamed[path] ?? path, names),
      text: substitute(await readFile(full, 'utf8'), names),
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
