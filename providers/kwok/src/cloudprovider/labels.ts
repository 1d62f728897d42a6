/** Labels and annotations the KWOK provider puts on the Nodes it creates. */
export const KwokNodeLabels = {
  /**
   * Marks a Node as launched by this provider for one cluster (the value is the cluster name),
   * so `list` finds this cluster's instances and nothing else.
   */
  ManagedBy: 'karpenter.kwok.sh/managed-by',
} as const;

export const KwokNodeAnnotations = {
  /** kwok's selector: Nodes with this annotation are kept Ready by kwok. */
  Kwok: 'kwok.x-k8s.io/node',
  /** The KWOKNodeClass the Node was launched from, to rebuild the NodeClaim view. */
  NodeClass: 'karpenter.kwok.sh/nodeclass',
  /** Image the fake instance "runs"; constant, recorded so `status.imageID` is set. */
  ImageID: 'karpenter.kwok.sh/image-id',
} as const;

/** The annotation value kwok selects on. */
export const KwokAnnotationValue = 'fake';
/** The image every KWOK node reports. */
export const KwokImageID = 'kwok-fake-image';
