import { type ResourceType, resourceTypeOf } from '@nodewright/core/kube';
import { type EC2NodeClass, ec2NodeClassKind } from '../apis/index.js';

/** EC2NodeClasses, typed, as the nodeclass controllers read and patch them. */
export const EC2NodeClassResource: ResourceType<EC2NodeClass> =
  resourceTypeOf<EC2NodeClass>(ec2NodeClassKind);

/** Karpenter's finalizer on EC2NodeClasses: cloud resources made for it are cleaned up first. */
export const EC2NodeClassFinalizer = 'karpenter.k8s.aws/termination';
