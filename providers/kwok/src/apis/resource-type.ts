import { type ResourceType, resourceTypeOf } from '@nodewright/core/kube';
import { kwokNodeClassKind } from './kind.js';
import type { KWOKNodeClass } from './kwoknodeclass.js';

// Apart from the kind, so the plug-in object (kinds only) loads without the cluster port.

/** The cluster-port type of KWOKNodeClass objects. */
export const KWOKNodeClasses: ResourceType<KWOKNodeClass> = resourceTypeOf<KWOKNodeClass>(kwokNodeClassKind);
