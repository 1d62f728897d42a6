/**
 * `@nodewright/core/snapshot`: the pure half of `state` — cutting a SolverInput from a cluster's
 * objects (`buildSolverInput`), pod roles, capacity and NodePool usability — without the
 * ClusterState runtime and its metrics, so the CLI's offline commands load neither the
 * controller runtime nor prom-client. `@nodewright/core/state` exports all of it too.
 */
export * from './capacity.js';
export * from './nodepool-usability.js';
export * from './pod-role.js';
export * from './snapshot.js';
