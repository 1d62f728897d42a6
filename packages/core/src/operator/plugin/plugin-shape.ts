import type { ProviderPlugin } from './provider-plugin.js';

/**
 * What is wrong with a value offered as a provider plug-in object, one sentence per problem
 * naming the field (`kinds[0].apiVersion: ...`); empty when it has the shape ProviderPlugin
 * documents. Loaders of out-of-tree packages check with this before trusting the value, so a
 * package exporting the wrong thing fails at start with a sentence, not later with a TypeError.
 */
export function providerPluginProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [`is ${describe(value)}, not an object`];
  const plugin = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof plugin.name !== 'string' || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(plugin.name)) {
    problems.push(
      `name: must be a lower-case name such as "aws" (letters, digits, "-"), not ${describe(plugin.name)}`,
    );
  }
  if (typeof plugin.create !== 'function')
    problems.push(`create: must be a function, not ${describe(plugin.create)}`);
  if (!Array.isArray(plugin.kinds)) {
    problems.push(`kinds: must be an array of KindDefinitions, not ${describe(plugin.kinds)}`);
  } else {
    plugin.kinds.forEach((kind: unknown, i) => {
      const k = (kind ?? {}) as Record<string, unknown>;
      for (const field of ['apiVersion', 'kind'] as const) {
        if (typeof k[field] !== 'string' || k[field] === '')
          problems.push(`kinds[${i}].${field}: must be a non-empty string`);
      }
      if (typeof (k.schema as { safeParse?: unknown } | undefined)?.safeParse !== 'function') {
        problems.push(`kinds[${i}].schema: must be a zod schema`);
      }
    });
  }
  const settings = plugin.settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    problems.push(`settings: must be an object of key -> description, not ${describe(settings)}`);
  } else {
    for (const [key, text] of Object.entries(settings)) {
      if (typeof text !== 'string') problems.push(`settings.${key}: must be a one-line description string`);
    }
  }
  if (plugin.catalogs !== undefined) {
    if (!Array.isArray(plugin.catalogs)) problems.push('catalogs: must be an array of CatalogProviders');
    else
      plugin.catalogs.forEach((catalog: unknown, i) => {
        const c = (catalog ?? {}) as Record<string, unknown>;
        if (typeof c.name !== 'string' || typeof c.catalog !== 'function') {
          problems.push(`catalogs[${i}]: must have a name and a catalog() function`);
        }
      });
  }
  if (plugin.converters !== undefined && !Array.isArray(plugin.converters)) {
    problems.push('converters: must be an array of Converters');
  }
  return problems;
}

/** The value as a ProviderPlugin, or an Error naming `where` and every problem. */
export function asProviderPlugin(value: unknown, where: string): ProviderPlugin {
  const problems = providerPluginProblems(value);
  if (problems.length > 0) {
    throw new Error(`${where}: not a nodewright provider plug-in object: ${problems.join('; ')}`);
  }
  return value as ProviderPlugin;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value}"`;
  return typeof value === 'function' ? 'a function' : typeof value === 'object' ? 'an object' : String(value);
}
