/**
 * A value an EC2 XML response can carry. Arrays become `<item>` lists (EC2's only list form),
 * Dates ISO-8601, undefined members are left out.
 */
export type XmlValue = string | number | boolean | Date | undefined | readonly XmlValue[] | XmlObject;
export interface XmlObject {
  readonly [key: string]: XmlValue;
}

export const EC2_XMLNS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** Escapes text for element content. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === "'" ? '&apos;' : '&quot;',
  );
}

/**
 * The XML for `value` as the children of one element. List entries are `<item>` (EC2) unless
 * `listItem` names another element (`member` in the IAM-style Query services).
 */
export function toXml(value: XmlValue, listItem = 'item'): string {
  if (value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return escapeXml(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value.map((v) => `<${listItem}>${toXml(v, listItem)}</${listItem}>`).join('');
  return Object.entries(value as XmlObject)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${k}>${toXml(v, listItem)}</${k}>`)
    .join('');
}

/** `<{action}Response xmlns=...><requestId>..</requestId>{body}</{action}Response>`, as EC2 replies. */
export function ec2Response(action: string, requestId: string, body: XmlObject): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${EC2_XMLNS}">` +
    `<requestId>${requestId}</requestId>${toXml(body)}</${action}Response>`
  );
}

/** EC2's error envelope: `<Response><Errors><Error><Code>..` with the request id. */
export function ec2ErrorResponse(code: string, message: string, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escapeXml(code)}</Code>` +
    `<Message>${escapeXml(message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`
  );
}

/**
 * The awsQuery envelope IAM (and STS, SNS, ...) replies with:
 * `<{action}Response xmlns><{action}Result>{result}</{action}Result><ResponseMetadata>`, lists as
 * `<member>`; an action without output has no Result element.
 */
export function queryResponse(action: string, xmlns: string, requestId: string, result?: XmlObject): string {
  const body = result === undefined ? '' : `<${action}Result>${toXml(result, 'member')}</${action}Result>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${xmlns}">${body}` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`
  );
}

/** The awsQuery error envelope: `<ErrorResponse><Error><Type><Code><Message>` and the request id. */
export function queryErrorResponse(
  xmlns: string,
  error: { readonly type: 'Sender' | 'Receiver'; readonly code: string; readonly message: string },
  requestId: string,
): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="${xmlns}"><Error><Type>${error.type}</Type>` +
    `<Code>${escapeXml(error.code)}</Code><Message>${escapeXml(error.message)}</Message></Error>` +
    `<RequestId>${requestId}</RequestId></ErrorResponse>`
  );
}
