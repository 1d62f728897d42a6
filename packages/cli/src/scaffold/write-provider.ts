import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProviderNames } from './provider-names.js';
import { providerPackageJson } from './provider-package.js';
import { type GeneratedFile, templateFiles } from './provider-template.js';

/** The files of a new provider package: the template's, named, and its package.json. */
export async function providerFiles(
  names: ProviderNames,
  nodewrightVersion: string,
): Promise<GeneratedFile[]> {
  const files = await templateFiles(names);
  return [...files, { path: 'package.json', text: providerPackageJson(names, nodewrightVersion) }].sort(
    (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/** The target folder exists and holds files: a new package is never written over anything. */
export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
}

/**
 * Writes the files into `dir` (created with its parents), which must be missing or empty.
 * @throws TargetNotEmptyError naming the folder and what is in it.
 */
export async function writeFiles(dir: string, files: readonly GeneratedFile[]): Promise<void> {
  const present = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (present.length > 0) {
    const shown = present.slice(0, 3).join(', ') + (present.length > 3 ? ', ...' : '');
    throw new TargetNotEmptyError(`${dir} is not empty (${shown}); give a new folder with --dir`);
  }
  for (const file of files) {
    const path = join(dir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
  }
}
