/**
 * Karpenter's reason for a failed launch, from the AWS error code and message: the same few
 * names its `instance_launch_failures_total` and NodeClaim conditions use, so alerts on them
 * carry over; anything else is `LaunchFailed`. Pure.
 */
export function launchFailureReason(code: string, message: string): string {
  const text = `${code}: ${message}`;
  const has = (s: string) => text.includes(s);
  if (has('AuthFailure.ServiceLinkedRoleCreationNotPermitted')) return 'SpotSLRCreationFailed';
  if (has('UnauthorizedOperation') || has('AccessDenied') || has('AuthFailure')) {
    return has('Not authorized for images') ? 'AMIAuthorizationFailure' : 'Unauthorized';
  }
  if (has('InvalidParameter') && has('belong to different networks')) return 'SecurityGroupSubnetVPCMismatch';
  if (has('iamInstanceProfile.name is invalid')) return 'InstanceProfileNameInvalid';
  if (has('InvalidLaunchTemplateId.NotFound')) return 'LaunchTemplateNotFound';
  if (has('User data is limited to')) return 'UserDataSizeLimitExceeded';
  if (has('InvalidAMIID.Malformed')) return 'InvalidAMIID';
  if (has('InvalidAMIID.NotFound')) return 'AMINotFound';
  if (has('RequestLimitExceeded')) return 'RequestLimitExceeded';
  if (has('InternalError')) return 'InternalError';
  if (has('not eligible for Free Tier')) return 'FreeTierIneligible';
  // Capacity and quota codes last: a fleet whose every error is one of these is an ICE.
  if (has('MaxFleetCountExceeded')) return 'FleetQuotaExceeded';
  if (has('PendingVerification')) return 'AccountPendingVerification';
  if (has('MaxSpotInstanceCountExceeded')) return 'SpotQuotaExceeded';
  if (has('VcpuLimitExceeded')) return 'VCPULimitExceeded';
  if (has('InsufficientFreeAddressesInSubnet')) return 'InsufficientFreeAddressesInSubnet';
  return 'LaunchFailed';
}
