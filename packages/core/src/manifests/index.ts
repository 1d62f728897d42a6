// Field errors live with the API schemas; re-exported here because manifest errors use them.
export {
  type FieldError,
  fieldErrors,
  formatFieldPath,
  formatObjectError,
  parseFieldPath,
} from '../apis/field-errors.js';
export * from './decode.js';
export * from './format.js';
export * from './manifest.js';
export * from './nesting.js';
export * from './node-fs.js';
export * from './parse.js';
export * from './read.js';
export * from './text-check.js';
