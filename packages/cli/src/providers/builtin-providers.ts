/**
 * A provider the CLI can load by name: its package is imported only when `load` is called, and
 * its default export is the plug-in object, found exactly as for `--provider-module`.
 */
export interface ProviderSource {
  /** The plug-in object's `name`, known before loading so the controller loads one package only. */
  readonly name: string;
  /** Where it comes from, for messages: a package name or a path. */
  readonly specifier: string;
  /** Imports the module (the plug-in object is its `default` export). */
  load(): Promise<unknown>;
}

/**
 * The providers built into `nodewright`: the one place an in-tree provider is listed. Each is
 * loaded on demand: the controller imports only the chosen one, since a provider package brings
 * its cloud SDK when it runs and the controller keeps what it loads.
 */
export const BuiltinProviders: readonly ProviderSource[] = [
  // The packages' `plugin` entries hold the plug-in object alone (the same object as their
  // default export), so loading it costs the kinds, converters and catalogs, not the SDKs.
  { name: 'kwok', specifier: '@nodewright/kwok', load: () => import('@nodewright/kwok/plugin') },
  { name: 'aws', specifier: '@nodewright/aws', load: () => import('@nodewright/aws/plugin') },
  { name: 'gcp', specifier: '@nodewright/gcp', load: () => import('@nodewright/gcp/plugin') },
  { name: 'azure', specifier: '@nodewright/azure', load: () => import('@nodewright/azure/plugin') },
];
