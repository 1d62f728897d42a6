// `@nodewright/conformance`: what a provider package runs to prove it works with nodewright.
// Nothing here imports a cloud SDK or a provider package: cloud mocks are their own entry points
// (`@nodewright/conformance/mocks/aws`), and everything a suite needs comes in through options.

export { KubeletHarness, type MockInstance, type MockInstanceSource } from '@nodewright/conformance/harness';
export {
  type ClauseResult,
  type ClauseState,
  ClusterE2EClauses,
  type ClusterE2EOptions,
  type ClusterE2ETarget,
  type ConformanceReport,
  type ContractClusterOptions,
  contractCluster,
  describeClusterE2E,
  describeProviderContract,
  type ExampleNodePool,
  type MockCloud,
  type OfferingRef,
  ProviderContractClauses,
  type ProviderContractFixture,
  type ProviderContractHarness,
  type ProviderContractOptions,
  type ProviderFaults,
  RecordingTimers,
  type ReportOptions,
  readExampleNodePools,
  renderReportMarkdown,
  resolveCliBin,
} from '@nodewright/conformance/suite';
