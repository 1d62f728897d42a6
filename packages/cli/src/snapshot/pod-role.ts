/*
 * Which pods a decision places, keeps or leaves out is core logic shared with the controller and
 * the simulator; the CLI re-exports it under its old names.
 */
export { type PodRole, type PodRoleOptions, podId, podRole } from '@nodewright/core/snapshot';
