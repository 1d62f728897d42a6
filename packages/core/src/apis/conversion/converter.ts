/**
 * The conversion port: upgrading manifests of an old API version to the current one, object
 * by object, with a channel for data that moves from one object to another (a v1beta1
 * NodePool's kubelet settings belong on its NodeClass in v1).
 */

/** A manifest as decoded: a plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** Something conversion could not carry over, or a behaviour change the user must know of. */
export interface ConversionWarning {
  /** `Kind/name` of the object the warning is about. */
  readonly object: string;
  /** Field path within that object, in Kubernetes notation (`spec.template.spec.kubelet`). */
  readonly field: string;
  readonly message: string;
}

/** An object addressed by API group, kind and name (NodeClasses are cluster-scoped). */
export interface ObjectAddress {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}

/** What a converter may do besides returning the converted object. */
export interface ConversionContext {
  /** `Kind/name` of the object being converted. */
  readonly object: string;
  /** Records a warning about `field` of the object being converted. */
  warn(field: string, message: string): void;
  /**
   * Hands data to another object of the batch, by address, under a topic the receiving kind
   * understands (e.g. `kubelet`). `field` is where the data came from in this object, so
   * warnings about it point there. A `value` of undefined says "this object has none": it
   * takes part in conflict checks but is never reported as undeliverable.
   */
  handOff(to: ObjectAddress, topic: string, value: unknown, field: string): void;
}

/** One hand-off as the receiver sees it. */
export interface Delivery {
  /** `Kind/name` of the sending object. */
  readonly from: string;
  /** Field of the sender the value came from. */
  readonly field: string;
  /** The data; undefined when the sender has none. */
  readonly value: unknown;
  /** Records a warning about the sender's field (e.g. "not carried over: conflicts with ..."). */
  warn(message: string): void;
}

/**
 * Accepts hand-offs addressed to objects of one group and kind, whatever version they are in
 * (so a v1beta1 NodePool can hand its kubelet to an EC2NodeClass already at v1). It runs after
 * every object has been converted, once per target object and topic, with the deliveries in
 * input order.
 */
export interface HandOffReceiver {
  readonly group: string;
  readonly kind: string;
  readonly topics: readonly string[];
  receive(
    object: JsonObject,
    topic: string,
    deliveries: readonly Delivery[],
    ctx: ConversionContext,
  ): JsonObject;
}

/**
 * Advice for an object written for the target version that still uses the old version's
 * form of a field (a v1 NodePool with `consolidationPolicy: WhenUnderutilized`): appended to
 * the field's validation error.
 */
export interface MigrationHint {
  /** The field, in Kubernetes notation (`spec.disruption.expireAfter`). */
  readonly field: string;
  /** Only when the field holds this value; any value when absent. */
  readonly value?: string;
  readonly hint: string;
}

/** Upgrades one apiVersion/kind. `convert` gets a private copy of the object it may mutate. */
export interface Converter {
  readonly from: { readonly apiVersion: string; readonly kind: string };
  /** The apiVersion the converter produces and the old fields explained for it. */
  readonly migrationHints?: { readonly apiVersion: string; readonly hints: readonly MigrationHint[] };
  convert(obj: JsonObject, ctx: ConversionContext): JsonObject;
  /** Where data handed off by other converters lands, for the kind this converter produces. */
  readonly receives?: HandOffReceiver;
}

/** The topic under which a NodePool hands its v1beta1 kubelet configuration to its NodeClass. */
export const KubeletHandOffTopic = 'kubelet';
