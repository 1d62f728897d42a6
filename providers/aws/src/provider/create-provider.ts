import { instanceLaunchMetrics, interruptionMessageMetrics } from '@nodewright/core/cloudprovider';
import type { ProviderContext, ProviderInstance } from '@nodewright/core/operator';
import { Instances } from '../instance/instances.js';
import { InstanceTypeProvider } from '../instancetype/provider.js';
import { SqsInterruptionSource } from '../interruption/sqs-source.js';
import { deleteNodeClassLaunchTemplates } from '../launch/launch-template-cleanup.js';
import { LaunchTemplates } from '../launch/launch-templates.js';
import { FleetLauncher } from '../launch/launcher.js';
import { Subnets } from '../launch/subnets.js';
import { InstanceProfiles } from '../nodeclass/instance-profile.js';
import { NodeClassResolver } from '../nodeclass/resolver.js';
import { EC2NodeClassStatusController } from '../nodeclass/status-controller.js';
import { EC2NodeClassTerminationController } from '../nodeclass/termination-controller.js';
import { PricingProvider } from '../pricing/provider.js';
import type { AwsClients } from './aws-clients.js';
import { AwsCloudProvider } from './aws-cloud-provider.js';
import { EC2NodeClasses, NodeClassReader } from './nodeclass-reader.js';
import type { AwsSettings } from './settings.js';

/** Composes the provider from the context and clients (the seam tests and the conformance suite use). */
export function createAwsProvider(
  context: ProviderContext,
  settings: AwsSettings,
  clients: Omit<AwsClients, 'destroy'> & { destroy?(): void },
): ProviderInstance {
  const logger = context.logger.child({ logger: 'aws' });
  const { clock, timers, clusterName, unavailableOfferings } = context;
  const prices = new PricingProvider({
    pricing: clients.pricing,
    ec2: clients.ec2,
    region: settings.region,
    clock,
    timers,
    logger,
  });
  const instanceTypes = new InstanceTypeProvider({
    ec2: clients.ec2,
    prices,
    clock,
    timers,
    logger,
    unavailableOfferings,
    region: settings.region,
  });
  const launchMetrics = instanceLaunchMetrics(context.registry);
  const launcher = new FleetLauncher({
    ec2: clients.ec2,
    launchTemplates: new LaunchTemplates({ ec2: clients.ec2, clock }),
    subnets: new Subnets({ ec2: clients.ec2, clock }),
    unavailableOfferings,
    logger,
    clusterName,
    clusterEndpoint: settings.clusterEndpoint,
    caBundle: settings.caBundle,
    metrics: launchMetrics,
  });
  const interruptions =
    settings.interruptionQueue === undefined
      ? undefined
      : new SqsInterruptionSource({
          sqs: clients.sqs,
          ec2: clients.ec2,
          queueName: settings.interruptionQueue,
          logger,
          metrics: interruptionMessageMetrics(context.registry),
          clock,
        });
  const cloudProvider = new AwsCloudProvider({
    nodeClasses: new NodeClassReader(context.cluster),
    instanceTypes,
    launcher,
    instances: new Instances({
      ec2: clients.ec2,
      clusterName,
      clock,
      terminationFailures: launchMetrics.terminationFailures,
    }),
    logger,
    interruptions,
    caBundle: settings.caBundle,
    unavailableOfferings,
  });
  const instanceProfiles = new InstanceProfiles({ iam: clients.iam, clusterName, region: settings.region });
  const resolver = new NodeClassResolver({
    ec2: clients.ec2,
    ssm: clients.ssm,
    clock,
    instanceProfiles,
    kubernetesVersion: async () => {
      if (settings.kubernetesVersion === undefined) {
        throw new Error(
          'aws provider: setting kubernetesVersion (e.g. 1.33) is required to resolve AMI aliases such as al2023@latest',
        );
      }
      return settings.kubernetesVersion;
    },
  });
  const statusController = new EC2NodeClassStatusController({ cluster: context.cluster, resolver, clock });
  const terminationController = new EC2NodeClassTerminationController({
    cluster: context.cluster,
    instanceProfiles,
    launchTemplates: {
      deleteFor: (nodeClassName) => deleteNodeClassLaunchTemplates(clients.ec2, clusterName, nodeClassName),
    },
  });
  prices.start();
  instanceTypes.start();
  return {
    cloudProvider,
    controllers: [statusController, terminationController],
    nodeClassTypes: [EC2NodeClasses],
    close: async () => {
      instanceTypes.stop();
      prices.stop();
      clients.destroy?.();
    },
  };
}
