import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { decodeManifests } from '@nodewright/core/manifests';

/** One NodePool manifest found under examples/. */
export interface ExampleNodePool {
  /** Relative to the repository root, with the object's name: `examples/nodepools/aws/gpu.yaml NodePool/gpu`. */
  readonly id: string;
  readonly manifest: Record<string, unknown>;
}

/**
 * Where the examples keep plain NodePool manifests: every file under examples/nodepools, and
 * the NodePool files of the schedule and disrupt walkthroughs. (Scenario files embed their
 * pools in the simulate format and examples/convert holds v1beta1 input; neither is a v1
 * manifest to apply.)
 */
export const ExampleNodePoolInputs: readonly string[] = [
  'examples/nodepools',
  'examples/schedule/nodepools.yaml',
  'examples/disrupt/nodepools.yaml',
];

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (entries === undefined) return [path];
  const nested = await Promise.all(
    entries
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((e) => (e.isDirectory() ? filesUnder(join(path, e.name)) : Promise.resolve([join(path, e.name)]))),
  );
  return nested.flat().filter((f) => /\.(ya?ml|json)$/.test(f));
}

/**
 * Every `karpenter.sh/v1` NodePool in the example inputs, in file order.
 * @throws naming the file and line of a document that does not decode.
 */
export async function readExampleNodePools(repoRoot: string): Promise<ExampleNodePool[]> {
  const pools: ExampleNodePool[] = [];
  for (const input of ExampleNodePoolInputs) {
    for (const file of await filesUnder(join(repoRoot, input))) {
      const name = relative(repoRoot, file);
      const set = decodeManifests(name, await readFile(file, 'utf8'));
      const [error] = set.errors;
      if (error) throw new Error(`${name}:${error.line ?? '?'}: ${error.message}`);
      for (const manifest of set.manifests) {
        if (manifest.apiVersion === 'karpenter.sh/v1' && manifest.kind === 'NodePool') {
          pools.push({
            id: `${name} ${manifest.id}`,
            manifest: structuredClone(manifest.object) as Record<string, unknown>,
          });
        }
      }
    }
  }
  return pools;
}
