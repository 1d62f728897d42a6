/**
 * One JSON log line as a person reads it at a terminal (`--log-format text`):
 * `2026-12-04T14:00:00.000Z INFO  [nodeclaim.lifecycle] launched NodeClaim=default-x8k2p type=m5.large`.
 * Every field of the JSON line stays in the text one: time, level, the controller in brackets,
 * the message, then the other fields as key=value, objects logged by reference as
 * `namespace/name`, strings with spaces quoted. A line that is not a JSON object passes through.
 */
export function textLogLine(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(jsonLine);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return jsonLine;
    record = parsed as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, logger: _logger, controller, message, ...rest } = record;
  const head = [String(time ?? ''), String(level ?? '').padEnd(5)];
  if (controller !== undefined) head.push(`[${String(controller)}]`);
  if (message !== undefined) head.push(String(message));
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${textValue(value)}`);
  return `${[...head, ...fields].join(' ')}\n`;
}

function textValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (isObjectRef(value))
    return value.namespace === undefined ? value.name : `${value.namespace}/${value.name}`;
  return JSON.stringify(value);
}

function isObjectRef(value: unknown): value is { name: string; namespace?: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const ref = value as Record<string, unknown>;
  return (
    typeof ref.name === 'string' &&
    keys.every((k) => k === 'name' || (k === 'namespace' && typeof ref.namespace === 'string'))
  );
}
