import type { RegisterHooksOptions } from 'node:module';

/** The module of client-node that imports the generated index for two names only. */
const ConfigModule = '/@kubernetes/client-node/dist/config.js';
/** Where the subset is said to live: beside the real index, so its relative imports resolve there. */
const SubsetFile = 'nodewright-gen-subset.js';

/**
 * What `gen/index.js` (client-node 2.0.x) exports, minus the generated API groups
 * (`types/ObjectParamAPI.js`, which loads every `apis/*Api.js` and `ObservableAPI.js`) and the
 * generated models (`models/all.js`). `config.js` needs `createConfiguration` and
 * `ServerConfiguration`; the rest is kept so that a client-node release importing one more
 * plain name from the index still links. One that imports an API class fails to link at start
 * (`does not provide an export named ...`), loudly, and client-node-subset.test.ts says which.
 */
const SubsetSource = [
  "export * from './http/http.js';",
  "export * from './auth/auth.js';",
  "export { createConfiguration } from './configuration.js';",
  "export * from './apis/exception.js';",
  "export * from './servers.js';",
  "export { RequiredError } from './apis/baseapi.js';",
  "export { Observable } from './rxjsStub.js';",
].join('\n');

/**
 * Module hooks (for `module.registerHooks`) that let a process use @kubernetes/client-node's
 * KubeConfig, Watch and fetch library without loading its generated API clients.
 *
 * client-node's `config.js` (KubeConfig) imports its generated `gen/index.js`, which loads every
 * API group and model: 17 MB of JavaScript source that V8 keeps on the heap, and their compiled
 * code — 26 MB of heap and 56 MB of resident memory, a quarter of a controller's footprint,
 * for classes nodewright never calls (it speaks to the API server through ClientNodeTransport).
 * These hooks resolve that one import, from `config.js` only, to a module re-exporting the
 * index's small parts from the same files, so every class keeps one identity. Importing
 * `@kubernetes/client-node` itself, from anywhere, still loads the whole package.
 *
 * Register them before client-node is first loaded (the CLI's entry point does); registered
 * later they change nothing. The process-wide registration is the caller's: this only builds
 * the hooks.
 */
export function clientNodeSubsetHooks(): RegisterHooksOptions {
  return {
    resolve(specifier, context, nextResolve) {
      if (specifier === './gen/index.js' && context.parentURL?.endsWith(ConfigModule)) {
        return { url: new URL(`./gen/${SubsetFile}`, context.parentURL).href, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (url.endsWith(`/@kubernetes/client-node/dist/gen/${SubsetFile}`)) {
        return { format: 'module', source: SubsetSource, shortCircuit: true };
      }
      return nextLoad(url, context);
    },
  };
}
