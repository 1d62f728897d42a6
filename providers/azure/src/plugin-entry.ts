/**
 * The plug-in object alone (`@nodewright/azure/plugin`): what the CLI loads for `--provider azure`
 * and `--catalog azure` without the rest of the package; the Azure SDK is imported only when the
 * plug-in's `create` runs.
 */
export { azureProviderPlugin as default } from './provider/azure-provider-plugin.js';
