export * from './cloud-provider.js';
export * from './nodeclaim-view.js';
