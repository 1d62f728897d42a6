import type { RegisterHooksOptions } from 'node:module';

/** The module of client-node that imports the generated index for two names only. */
const ConfigModule = '/@kubernetes/client-node/dist/config.js';

/**
 * Module hooks (for `module.registerHooks`) that let a process use @kubernetes/client-node's
 * KubeConfig, Watch and fetch library without loading its generated API clients.
 *
 * client-node's `config.js` (KubeConfig) imports its generated `gen/index.js`, which loads every
 * API group and model: 17 MB of JavaScript source that V8 keeps on the heap, and their compiled
 * code — 26 MB of heap and 56 MB of resident memory, a quarter of a controller's footprint,
 * for classes nodewright never calls (it speaks to the API server through ClientNodeTransport).
 * The hook resolves that one import, from `config.js` only, to client-node-gen-subset, which
 * re-exports the index's small parts from the same files. Importing `@kubernetes/client-node`
 * itself, from anywhere, still loads the whole package.
 *
 * Only a resolve hook: a load hook would send every CommonJS module loaded after it through
 * the hooks' loader, which keeps a second copy of each one's source (measured: 4 MB of heap and
 * 28 MB of resident memory more for client-node's dependencies).
 *
 * Register them before client-node is first loaded (the CLI's entry point does); registered
 * later they change nothing. The process-wide registration is the caller's: this only builds
 * the hooks.
 */
export function clientNodeSubsetHooks(): RegisterHooksOptions {
  // Built as .js; run from its TypeScript source (tests), the subset is the .ts beside it.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const subset = new URL(`./client-node-gen-subset${extension}`, import.meta.url).href;
  return {
    resolve(specifier, context, nextResolve) {
      if (specifier === './gen/index.js' && context.parentURL?.endsWith(ConfigModule)) {
        return { url: subset, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  };
}
