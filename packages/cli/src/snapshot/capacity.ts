/*
 * Pairing Nodes with NodeClaims and counting NodePool usage is core logic shared with the
 * controller and the simulator; the CLI re-exports it under its old names.
 */
export { type CapacityOptions, type ClusterCapacity, clusterCapacity } from '@nodewright/core/snapshot';
