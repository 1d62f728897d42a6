import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bundleHooks } from './bundle-hooks.js';
import { SharedSpecifiers, sharedModuleName } from './shared-modules.js';

const bundle = new URL('file:///app/node_modules/@nodewright/cli/dist/bundle/');
const core = 'file:///app/node_modules/@nodewright/core/dist/index.js';
const context = (parentURL: string): ResolveHookContext => ({
  conditions: ['import'],
  importAttributes: {},
  parentURL,
});

/** A default resolver that finds only the specifiers in `visible`, for any parent in it. */
function resolver(visible: Record<string, string[]>) {
  const calls: string[] = [];
  const next = (specifier: string, ctx?: Partial<ResolveHookContext>): ResolveFnOutput => {
    calls.push(`${specifier} from ${ctx?.parentURL}`);
    const parent = Object.keys(visible).find((p) => ctx?.parentURL?.startsWith(p));
    if (parent !== undefined && visible[parent]!.includes(specifier))
      return { url: `file:///resolved/${specifier}` };
    throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
  };
  return { next, calls };
}

describe('bundleHooks', () => {
  const { resolve } = bundleHooks(bundle, core);

  it("resolves every shared package, from anywhere, to the bundle's entry for it", () => {
    const { next, calls } = resolver({});
    for (const specifier of SharedSpecifiers) {
      const out = resolve!(
        specifier,
        context('file:///app/node_modules/@nodewright/aws/dist/plugin.js'),
        next,
      );
      expect(out).toEqual({
        url: new URL(`${sharedModuleName(specifier)}.js`, bundle).href,
        format: 'module',
        shortCircuit: true,
      });
    }
    expect(SharedSpecifiers).toContain('@nodewright/core/apis');
    expect(calls).toEqual([]);
  });

  it("resolves core's own dependency imported by the bundle from core's folder", () => {
    const { next, calls } = resolver({ [core]: ['prom-client'] });
    const out = resolve!('prom-client', context(new URL('chunk-A.js', bundle).href), next);
    expect(out.url).toBe('file:///resolved/prom-client');
    expect(calls).toEqual([
      `prom-client from ${new URL('chunk-A.js', bundle).href}`,
      `prom-client from ${core}`,
    ]);
  });

  it('leaves a missing package imported from outside the bundle missing', () => {
    const { next } = resolver({ [core]: ['prom-client'] });
    expect(() => resolve!('prom-client', context('file:///app/index.js'), next)).toThrow(
      /Cannot find package/,
    );
  });

  it('passes other imports through unchanged', () => {
    const { next } = resolver({ 'file:///app/': ['@nodewright/aws'] });
    expect(resolve!('@nodewright/aws', context('file:///app/x.js'), next).url).toBe(
      'file:///resolved/@nodewright/aws',
    );
  });
});
