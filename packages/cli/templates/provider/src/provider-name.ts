/** The provider's name: `--provider acme`, the providerID scheme, logs and messages. */
export const ProviderName = 'acme';
