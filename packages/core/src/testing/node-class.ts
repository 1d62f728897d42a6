/**
 * The NodeClass the test kit's objects reference and the FakeCloudProvider resolves, as
 * Karpenter's own tests use `karpenter.test.sh`. No such kind is served: the fake needs none.
 */
export const TestNodeClassRef = Object.freeze({
  group: 'karpenter.test.sh',
  kind: 'TestNodeClass',
  name: 'default',
});
