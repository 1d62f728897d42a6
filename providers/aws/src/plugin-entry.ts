/**
 * The plug-in object alone (`@nodewright/aws/plugin`): what the CLI loads for `--provider aws`
 * and `--catalog aws` without the rest of the package, whose SDK clients and controllers the
 * plug-in imports only when it runs.
 */
export { awsProviderPlugin as default } from './provider/plugin.js';
