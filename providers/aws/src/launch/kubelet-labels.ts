/** The kubelet's `--node-labels` rule lives in core, shared by every provider that bootstraps a kubelet. */
export { kubeletLabels } from '@nodewright/core/apis';
