import type { RegisterHooksOptions } from 'node:module';
import { SharedSpecifiers, sharedModuleName } from './shared-modules.js';

/**
 * Module hooks for running the bundled CLI (`bundle` is the URL of its folder, ending in `/`):
 *
 * - a SharedSpecifiers import from anywhere resolves to the bundle's entry for it, so a provider
 *   package loaded from node_modules shares the bundle's `@nodewright/core` and `zod`;
 * - a package the bundle leaves out (the operator's runtime dependencies, the Kubernetes client)
 *   and imports by name resolves from `fallbackParent` (`@nodewright/core`'s own entry) when the
 *   CLI's folder cannot see it: it is core's dependency, not the CLI's, and a strict
 *   node_modules layout (pnpm's) puts it beside core only.
 */
export function bundleHooks(bundle: URL, fallbackParent: string): RegisterHooksOptions {
  const shared = new Map(SharedSpecifiers.map((s) => [s, new URL(`${sharedModuleName(s)}.js`, bundle).href]));
  return {
    resolve(specifier, context, next) {
      const url = shared.get(specifier);
      if (url !== undefined) return { url, format: 'module', shortCircuit: true };
      try {
        return next(specifier, context);
      } catch (err) {
        const fromBundle = context.parentURL?.startsWith(bundle.href) === true;
        if (!fromBundle || (err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
        return next(specifier, { ...context, parentURL: fallbackParent });
      }
    },
  };
}
