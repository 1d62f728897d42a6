import { gceNodeClassKind } from '@nodewright/gcp';

/**
 * What the GCP provider contributes to the CLI, in one place so it can move into a provider
 * plug-in object whole: its NodeClass kind (for validate, crds, schedule).
 */
export const gcpCliKinds = [gceNodeClassKind] as const;
