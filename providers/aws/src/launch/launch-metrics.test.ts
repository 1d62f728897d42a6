import { describe, expect, it } from 'vitest';
import { launchFailureReason } from './launch-metrics.js';

describe('launchFailureReason', () => {
  it("names an AWS failure as Karpenter's launch-failure metric does", () => {
    expect(launchFailureReason('UnauthorizedOperation', 'You are not authorized')).toBe('Unauthorized');
    expect(launchFailureReason('AuthFailure', 'Not authorized for images: [ami-1]')).toBe(
      'AMIAuthorizationFailure',
    );
    expect(
      launchFailureReason('AuthFailure.ServiceLinkedRoleCreationNotPermitted', 'cannot create the role'),
    ).toBe('SpotSLRCreationFailed');
    expect(launchFailureReason('InvalidAMIID.NotFound', 'ami-1 does not exist')).toBe('AMINotFound');
    expect(launchFailureReason('InvalidParameterValue', 'User data is limited to 16384 bytes')).toBe(
      'UserDataSizeLimitExceeded',
    );
    expect(launchFailureReason('VcpuLimitExceeded', 'quota')).toBe('VCPULimitExceeded');
    // Capacity errors are not named apart: only a fleet's outcome says whether all were ICE.
    expect(launchFailureReason('InsufficientInstanceCapacity', 'no capacity')).toBe('LaunchFailed');
  });
});
