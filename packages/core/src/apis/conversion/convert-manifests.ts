import type {
  ConversionContext,
  ConversionWarning,
  Converter,
  Delivery,
  JsonObject,
  ObjectAddress,
} from './converter.js';
import { groupOf, objectAt, objectName, quote, stringAt } from './json.js';

interface PendingHandOff {
  readonly to: ObjectAddress;
  readonly topic: string;
  readonly value: unknown;
  readonly field: string;
  readonly from: string;
}

/**
 * Converts a batch of manifests. Each object whose apiVersion and kind a converter handles is
 * replaced by the converter's result (computed on a private copy); every other object passes
 * through unchanged, and the order is kept. Afterwards, data converters handed off is delivered
 * to its target objects through the receiver registered for the target's group and kind; a
 * hand-off whose target kind has no receiver, or whose target is not among the objects, is a
 * warning on the sender. Warnings come in object order, then delivery order.
 */
export function convertManifests(
  objects: ReadonlyArray<Record<string, unknown>>,
  converters: readonly Converter[],
): { objects: Record<string, unknown>[]; warnings: ConversionWarning[] } {
  const warnings: ConversionWarning[] = [];
  const handOffs: PendingHandOff[] = [];
  const names = objects.map((obj, i) => objectName(obj, i + 1));
  const contextFor = (index: number): ConversionContext => {
    const object = names[index]!;
    return {
      object,
      warn: (field, message) => warnings.push({ object, field, message }),
      handOff: (to, topic, value, field) => handOffs.push({ to, topic, value, field, from: object }),
    };
  };

  const out = objects.map((obj, i) => {
    const converter = converters.find(
      (c) => c.from.apiVersion === obj.apiVersion && c.from.kind === obj.kind,
    );
    return converter === undefined ? obj : converter.convert(structuredClone(obj), contextFor(i));
  });

  const receivers = converters.flatMap((c) => (c.receives === undefined ? [] : [c.receives]));
  const copied = new Set<number>(out.flatMap((obj, i) => (obj === objects[i] ? [] : [i])));
  for (const group of groupHandOffs(handOffs).values()) {
    const { to, topic } = group[0]!;
    const deliveries = group.map((h) => delivery(h, warnings));
    const receiver = receivers.find(
      (r) => r.group === to.group && r.kind === to.kind && r.topics.includes(topic),
    );
    if (receiver === undefined) {
      for (const d of deliveries) {
        if (d.value !== undefined) {
          d.warn(
            `not carried over: nodewright has no conversion that moves ${topic} into ${to.kind} (${to.group || 'core'}); ` +
              `set it on ${to.kind}/${to.name} by hand if that kind supports it; value: ${quote(d.value)}`,
          );
        }
      }
      continue;
    }
    const target = out.findIndex((obj) => addressed(obj, to));
    if (target === -1) {
      for (const d of deliveries) {
        if (d.value !== undefined) {
          d.warn(
            `not carried over: ${to.kind}/${to.name} is not among the inputs; ` +
              `convert it together with this object, or add the ${topic} to it by hand; value: ${quote(d.value)}`,
          );
        }
      }
      continue;
    }
    // The receiver may mutate the target, which must never be the caller's input object.
    if (!copied.has(target)) {
      out[target] = structuredClone(out[target]!);
      copied.add(target);
    }
    out[target] = receiver.receive(out[target]!, topic, deliveries, contextFor(target));
  }
  return { objects: out, warnings };
}

/** Hand-offs grouped by target and topic, groups and members in the order they were made. */
function groupHandOffs(handOffs: readonly PendingHandOff[]): Map<string, PendingHandOff[]> {
  const groups = new Map<string, PendingHandOff[]>();
  for (const h of handOffs) {
    const key = JSON.stringify([h.to.group, h.to.kind, h.to.name, h.topic]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [h]);
    else group.push(h);
  }
  return groups;
}

function delivery(h: PendingHandOff, warnings: ConversionWarning[]): Delivery {
  return {
    from: h.from,
    field: h.field,
    value: h.value,
    warn: (message) => warnings.push({ object: h.from, field: h.field, message }),
  };
}

function addressed(obj: JsonObject, to: ObjectAddress): boolean {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : undefined;
  return (
    apiVersion !== undefined &&
    groupOf(apiVersion) === to.group &&
    obj.kind === to.kind &&
    stringAt(objectAt(obj, 'metadata'), 'name') === to.name
  );
}
