import { aksNodeClassKind } from '@nodewright/azure';
import type { KindDefinition } from '@nodewright/core/apis';

/**
 * What the Azure provider contributes to the CLI, in one place so it can move into the
 * provider's plug-in object unchanged: its NodeClass kind.
 */
export const azureKinds: readonly KindDefinition[] = [aksNodeClassKind];
