export { compareVerdicts, type Disagreement, type SideVerdict } from './differential.js';
export { canonicalFieldPath, schemaAt } from './field-path.js';
export { type Agreement, messageAgreement } from './message-agreement.js';
export { type RawRequestOptions, type RawResponse, rawRequest, warningsOf } from './raw-request.js';
export { type ResourcePaths, resourcePaths } from './resource-paths.js';
export { judgeRejection, type RuleVerdict } from './rule-verdict.js';
export { type Rejection, type ResponseLike, rejectionOf, type ServerCause } from './server-rejection.js';
export { nameOf, withNameSuffix } from './unique-name.js';
export { type WaitOptions, waitUntil } from './wait-until.js';
