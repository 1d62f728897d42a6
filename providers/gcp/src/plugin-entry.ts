/**
 * The plug-in object alone (`@nodewright/gcp/plugin`): what the CLI loads for `--provider gcp`
 * and `--catalog gcp` without the rest of the package, whose SDK clients and controllers the
 * plug-in imports only when it runs.
 */
export { gcpProviderPlugin as default } from './provider/plugin.js';
