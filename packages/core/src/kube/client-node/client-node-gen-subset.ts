// What client-node 2.0.x's `gen/index.js` exports, minus the generated API groups
// (`types/ObjectParamAPI.js`, which loads every `apis/*Api.js` and `ObservableAPI.js`) and the
// generated models (`models/all.js`): the module clientNodeSubsetHooks gives client-node's
// `config.js` in place of that index. `config.js` needs `createConfiguration` and
// `ServerConfiguration`; the rest is kept so that a client-node release importing one more
// plain name from the index still links. One that imports an API class fails to link at start
// (`does not provide an export named ...`), loudly, and client-node-subset.test.ts says which.
// The same files as the index's, so every class keeps one identity.

export { RequiredError } from '@kubernetes/client-node/dist/gen/apis/baseapi.js';
export * from '@kubernetes/client-node/dist/gen/apis/exception.js';
export * from '@kubernetes/client-node/dist/gen/auth/auth.js';
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export * from '@kubernetes/client-node/dist/gen/http/http.js';
export { Observable } from '@kubernetes/client-node/dist/gen/rxjsStub.js';
export * from '@kubernetes/client-node/dist/gen/servers.js';
