import { type ManifestSet, readManifests, StdinName } from '@nodewright/core/manifests';
import type { CommandContext, OptionValues } from './command.js';
import { requireFiles } from './command.js';
import { readAll } from './io.js';

/** The manifests of a command line's `-f` options, and those inputs as errors name them. */
export interface Inputs extends ManifestSet {
  readonly files: readonly string[];
}

/** Reads the manifests a command line's `-f` options name, relative to the working directory. */
export async function readInputs(values: OptionValues, { io, services }: CommandContext): Promise<Inputs> {
  const files = requireFiles(values);
  const set = await readManifests(files, {
    cwd: io.cwd,
    fs: services.fs,
    readStdin: () => readAll(io.stdin),
    recursive: values.recursive === true,
  });
  return { ...set, files: files.map((f) => (f === '-' ? StdinName : f)) };
}

/** The error for inputs that held no objects at all, which is almost always a mistake. */
export function noObjectsError(inputs: Inputs): string | undefined {
  if (inputs.manifests.length > 0 || inputs.errors.length > 0) return undefined;
  return `${inputs.files.join(', ')}: no objects found`;
}
