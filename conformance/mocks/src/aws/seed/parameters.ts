import type { ImageSeed } from './images.js';

/** A public SSM parameter naming an AMI, as AWS publishes them under `/aws/service`. */
export interface ParameterSeed {
  readonly name: string;
  readonly value: string;
  readonly lastModified: string;
}

const AL2023 = /^amazon-eks-node-al2023-(x86_64|arm64)-(standard|nvidia|neuron)-([0-9.]+)-(v\d+)$/;
const BOTTLEROCKET = /^bottlerocket-aws-k8s-([0-9.]+)(-nvidia)?-(x86_64|aarch64)-(v[0-9.]+)-/;

/**
 * The public parameters that name the seeded EKS AMIs, with AWS's paths:
 * - `/aws/service/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/<variant>/<image name>/image_id`
 *   per release, and `.../<variant>/recommended/image_id` for the newest;
 * - `/aws/service/bottlerocket/aws-k8s-<k8s>[-nvidia]/<x86_64|arm64>/<version>/image_id` and
 *   `.../latest/image_id`.
 */
export function publicParameters(images: readonly ImageSeed[]): ParameterSeed[] {
  const out = new Map<string, ParameterSeed>();
  const newest = new Map<string, ImageSeed>();
  const put = (name: string, image: ImageSeed) =>
    out.set(name, { name, value: image.id, lastModified: image.creationDate });
  const latest = (path: string, image: ImageSeed) => {
    const current = newest.get(path);
    if (current === undefined || current.creationDate < image.creationDate) newest.set(path, image);
  };
  for (const image of images) {
    const al = AL2023.exec(image.name);
    if (al !== null) {
      const [, arch, variant, k8s] = al;
      const base = `/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/${arch}/${variant}`;
      put(`${base}/${image.name}/image_id`, image);
      latest(`${base}/recommended/image_id`, image);
      continue;
    }
    const br = BOTTLEROCKET.exec(image.name);
    if (br !== null) {
      const [, k8s, nvidia = '', arch, version] = br;
      const base = `/aws/service/bottlerocket/aws-k8s-${k8s}${nvidia}/${arch === 'aarch64' ? 'arm64' : arch}`;
      put(`${base}/${version?.slice(1)}/image_id`, image);
      latest(`${base}/latest/image_id`, image);
    }
  }
  for (const [name, image] of newest) put(name, image);
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
