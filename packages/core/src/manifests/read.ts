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
  /**
   * The canonical path (symbolic links resolved), so a directory or file reached twice through
   * links is read once and a link loop under `-R` ends. Optional: without it, readManifests
   * stops descending at MaxDirectoryDepth.
   */
  realPath?(path: string): Promise<string>;
}

/** How deep `recursive` descends below a directory input; deeper is reported as an error. */
export const MaxDirectoryDepth = 64;

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

  // Canonical paths when the fs resolves links: a path it cannot resolve is read as given, so
  // the read reports the failure.
  const canonical = async (absolute: string) =>
    options.fs.realPath === undefined ? absolute : options.fs.realPath(absolute).catch(() => absolute);

  const readFile = async (shown: string, absolute: string) => {
    const key = await canonical(absolute);
    if (seen.has(key)) return;
    seen.add(key);
    try {
      decode(shown, await options.fs.readFile(absolute));
    } catch (error) {
      errors.push(cannotRead(shown, error));
    }
  };

  // `visited` holds the directories of one input's tree: a link back up that tree is not
  // followed again, while the same directory named twice on the command line still counts.
  const readDirectory = async (
    shown: string,
    absolute: string,
    visited: Set<string>,
    depth = 0,
  ): Promise<number> => {
    const key = await canonical(absolute);
    if (visited.has(key)) return 0;
    visited.add(key);
    if (depth > MaxDirectoryDepth) {
      errors.push({
        file: shown,
        message: `not read: more than ${MaxDirectoryDepth} directories deep (a symbolic link loop?)`,
      });
      return 0;
    }
    let count = 0;
    const entries = [...(await options.fs.readDir(absolute))].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const childShown = join(shown, entry.name);
      const childAbsolute = join(absolute, entry.name);
      if (entry.isDirectory) {
        if (options.recursive) count += await readDirectory(childShown, childAbsolute, visited, depth + 1);
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
      const count = await readDirectory(input, absolute, new Set());
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
