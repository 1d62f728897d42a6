import { formatObjectError } from '../apis/field-errors.js';
import type { ManifestError } from './manifest.js';

/**
 * One line per error. Errors about an object follow the CLI contract,
 * `file: Kind/name: field.path: message (line N)`; others read `file: message (line N, column M)`.
 * Every line starts with `file: ` so scripts can split the file off the same way.
 */
export function formatManifestError(error: ManifestError): string {
  if (error.object !== undefined) {
    return formatObjectError(error.file, error.object, error.path ?? '', error.message, error.line);
  }
  let at = '';
  if (error.line !== undefined) {
    at =
      error.column === undefined ? ` (line ${error.line})` : ` (line ${error.line}, column ${error.column})`;
  }
  return `${error.file}: ${error.message}${at}`;
}
