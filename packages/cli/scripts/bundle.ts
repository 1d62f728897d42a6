// Bundles the CLI after `tsc -b` (part of `pnpm build`): packages/cli/dist/entry.js and what it
// imports, @nodewright/core, @nodewright/kwok, zod and yaml, into dist/bundle/, one ESM entry plus the
// chunks its lazy imports load (each command's, each provider plug-in's), so a command reads a
// few files instead of hundreds of modules. dist/bin.js runs it (see src/bin.ts and
// src/bundling/bundle-hooks.ts). Left out, and loaded from node_modules as before: node's
// built-ins, the cloud providers (optional peer dependencies: their absence is reported by name)
// and every other third-party package (the operator runtime, the Kubernetes client).
import { readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { SharedSpecifiers, sharedModuleName } from '../src/bundling/shared-modules.ts';

const cli = resolve(import.meta.dirname, '..');
const outdir = join(cli, 'dist/bundle');

/** Packages compiled into the bundle; every other bare import stays an import. */
const Bundled = /^(@nodewright\/(core|kwok)|zod|yaml)(\/|$)/;
const Builtins = new Set(builtinModules);

const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'shared') return undefined;
      if (Builtins.has(args.path) || args.path.startsWith('node:') || !Bundled.test(args.path))
        return { path: args.path, external: true };
      return undefined;
    });
  },
};

/** One entry per SharedSpecifiers name, re-exporting it (bundle-hooks resolves the name to it). */
const sharedEntries: Plugin = {
  name: 'shared-entries',
  setup(b) {
    b.onResolve({ filter: /^shared:/ }, (args) => ({
      path: args.path.slice('shared:'.length),
      namespace: 'shared',
    }));
    b.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
      contents:
        args.path === 'zod'
          ? `export * from 'zod';\nexport { default } from 'zod';\n`
          : `export * from '${args.path}';\n`,
      resolveDir: cli,
    }));
  },
};

// core loads yaml on first use through a require of its own (yaml-library.ts): node cannot
// import a CommonJS package synchronously. In the bundle, the same call to the free `require`
// becomes a call into yaml's bundled copy, still made on first use only.
const lazyYaml: Plugin = {
  name: 'lazy-yaml',
  setup(b) {
    b.onLoad({ filter: /\/core\/dist\/manifests\/yaml-library\.js$/ }, () => ({
      contents: `export function yamlLibrary() {\n  return require('yaml');\n}\n`,
      loader: 'js',
      resolveDir: cli,
    }));
  },
};

// A module that finds files beside itself (`new URL('../package.json', import.meta.url)`) keeps
// finding them once bundled: its import.meta.url becomes its compiled file's, computed from the
// bundle's own URL, so the package still moves as a whole (an install, a packed tarball). For
// core's files that is core's package beside the CLI's (`../../../core/dist/...`), where npm,
// pnpm and this workspace all put it.
const ownLocation: Plugin = {
  name: 'own-location',
  setup(b) {
    b.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url') || args.path.includes('/node_modules/.pnpm/')) return undefined;
      const from = relative(outdir, args.path).replaceAll('\\', '/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(from)}, import.meta.url).href`,
        ),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: [
    { in: join(cli, 'dist/entry.js'), out: 'entry' },
    ...SharedSpecifiers.map((s) => ({ in: `shared:${s}`, out: sharedModuleName(s) })),
  ],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  chunkNames: 'chunk-[hash]',
  // Class and function names appear in messages and output; bundling must not rename them.
  keepNames: true,
  // Bundled CommonJS (yaml) requires node's built-ins; ESM has no `require` to do it with.
  banner: {
    js: "import { createRequire as __nodewrightRequire } from 'node:module';\nconst require = __nodewrightRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: 'warning',
  plugins: [sharedEntries, externals, lazyYaml, ownLocation],
});
const files = Object.keys(result.metafile.outputs).length;
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
process.stdout.write(
  `bundled the CLI: ${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${relative(process.cwd(), outdir)}\n`,
);
