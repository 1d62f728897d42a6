import { join, resolve } from 'node:path';
import { decodeManifests } from './decode.js';
import type { Manifest, ManifestError, ManifestSet } from './manifest.js';

/** The file-system calls reading manifests needs; paths are absolute. */
export interface ManifestFs {
  readFile(path: string): Promise<string>;
  /** Whether the path is a directory; rejects when the path cannot be read. */
  isDirectory(path: string): Promise<boolean>;
  /** The directory's entries, with whether each is a directory (symbolic links followed). */
  readDir(path: string): Promise<Array<{ name: string; isDirectory: boolean }>>;
}

export interface ReadManifestsOptions {
  /** Relative inputs are resolved against this directory. */
  readonly cwd: string;
  readonly fs: ManifestFs;
  /** Reads standard input for the input `-`; called at most once. */
  readonly readStdin: () => Promise<string>;
  /** Descend into subdirectories of a directory input (default: only its own files). */
  readonly recursive?: boolean;
}

/** Extensions a directory's files must have to be read. */
const ManifestExtensions: readonly string[] = ['.yaml', '.yml', '.json'];

/** How standard input is named in errors. */
export const StdinName = '<stdin>';

/**
 * Reads and decodes every input, in order: `-` is standard input, a directory stands for its
 * `*.yaml`, `*.yml` and `*.json` files in name order (subdirectories only when `recursive`),
 * anything else is a file whatever its name. A file reached twice is read once. An input
 * that cannot be read, and a directory without manifest files, is an error; the other
 * inputs are still read.
 */
export async function readManifests(
  inputs: readonly string[],
  options: ReadManifestsOptions,
): Promise<ManifestSet> {
  const manifests: Manifest[] = [];
  const errors: ManifestError[] = [];
  const seen = new Set<string>();

  const decode = (file: string, text: string) => {
    const set = decodeManifests(file, text);
    manifests.push(...set.manifests);
    errors.push(...set.errors);
  };

  const readFile = async (shown: string, absolute: string) => {
    if (seen.has(absolute)) return;
    seen.add(absolute);
    try {
      decode(shown, await options.fs.readFile(absolute));
    } catch (error) {
      errors.push(cannotRead(shown, error));
    }
  };

  const readDirectory = async (shown: string, absolute: string): Promise<number> => {
    let count = 0;
    const entries = [...(await options.fs.readDir(absolute))].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const childShown = join(shown, entry.name);
      const childAbsolute = join(absolute, entry.name);
      if (entry.isDirectory) {
        if (options.recursive) count += await readDirectory(childShown, childAbsolute);
      } else if (ManifestExtensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) {
        count += 1;
        await readFile(childShown, childAbsolute);
      }
    }
    return count;
  };

  for (const input of inputs) {
    if (input === '-') {
      if (seen.has('-')) continue;
      seen.add('-');
      try {
        decode(StdinName, await options.readStdin());
      } catch (error) {
        errors.push(cannotRead(StdinName, error));
      }
      continue;
    }
    const absolute = resolve(options.cwd, input);
    let directory: boolean;
    try {
      directory = await options.fs.isDirectory(absolute);
    } catch (error) {
      errors.push(cannotRead(input, error));
      continue;
    }
    if (!directory) {
      await readFile(input, absolute);
      continue;
    }
    try {
      const count = await readDirectory(input, absolute);
      if (count === 0) {
        const where = options.recursive ? 'in the directory or below it' : 'in the directory';
        errors.push({ file: input, message: `no *.yaml, *.yml or *.json files ${where}` });
      }
    } catch (error) {
      errors.push(cannotRead(input, error));
    }
  }
  return { manifests, errors };
}

function cannotRead(file: string, error: unknown): ManifestError {
  return { file, message: `cannot read: ${systemErrorReason(error)}` };
}

/**
 * The system's wording of a file-system error (`no such file or directory`), without Node's
 * `ENOENT: ` prefix and `, open '/abs/path'` suffix, so messages name the path as the user did.
 */
export function systemErrorReason(error: unknown): string {
  if (error instanceof Error) {
    const match = /^[A-Z]+: (.*?)(, \w+( '.*')?)?$/.exec(error.message);
    return match?.[1] ?? error.message;
  }
  return String(error);
}
