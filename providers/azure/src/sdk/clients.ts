// The entry point that loads the Azure SDK (`@nodewright/azure/clients`): kept out of the
// package's main entry so importing the plug-in object never loads it.
export * from './arm-clients.js';
export * from './arm-deadline.js';
export * from './azure-clients.js';
