import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManifestFs } from './read.js';

/** ManifestFs over the real file system (node:fs/promises). */
export const nodeManifestFs: ManifestFs = {
  readFile: (path) => readFile(path, 'utf8'),
  realPath: (path) => realpath(path),
  isDirectory: async (path) => (await stat(path)).isDirectory(),
  readDir: async (path) => {
    const entries = await readdir(path, { withFileTypes: true });
    return Promise.all(
      entries.map(async (entry) => ({
        name: entry.name,
        isDirectory: entry.isSymbolicLink()
          ? await stat(join(path, entry.name)).then(
              (s) => s.isDirectory(),
              () => false,
            )
          : entry.isDirectory(),
      })),
    );
  },
};
