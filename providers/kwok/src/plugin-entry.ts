/**
 * The plug-in object alone (`@nodewright/kwok/plugin`): what the CLI loads for `--provider
 * kwok` and `--catalog kwok` without the rest of the package, whose cloud provider and
 * controllers the plug-in imports only when it runs.
 */
export { kwokProviderPlugin as default } from './plugin/plugin.js';
