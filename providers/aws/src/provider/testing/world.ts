import type { CreateFleetCommandInput, CreateFleetCommandOutput } from '@aws-sdk/client-ec2';
import { FakeClock } from '@nodewright/core/clock';
import {
  type InstanceLaunchMetrics,
  instanceLaunchMetrics,
  UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import { ControllerEnv } from '@nodewright/core/testing';
import { LaunchTemplates } from '../../launch/launch-templates.js';
import { FleetLauncher } from '../../launch/launcher.js';
import { Subnets } from '../../launch/subnets.js';
import { awsError, fakeEc2 } from './fake-ec2.js';
import { recordingLogger, SubnetOf, Zones } from './fixtures.js';

/**
 * A FleetLauncher over a recording fake EC2 whose subnets have free IPs, whose launch templates
 * start absent, and whose CreateFleet answers with `fleet` (default: launches the first override).
 */
export function launchWorld(
  fleet?: (input: CreateFleetCommandInput) => Partial<CreateFleetCommandOutput>,
  ips: Record<string, number> = { 'subnet-a': 100, 'subnet-b': 50 },
) {
  const clock = new FakeClock(Date.parse('2026-06-01T00:00:00Z'));
  const ec2 = fakeEc2();
  const templates = new Set<string>();
  let nextId = 1;
  ec2
    .on('describeSubnets', (input) => ({
      Subnets: (input.SubnetIds ?? []).map((id) => ({
        SubnetId: id,
        AvailabilityZone: Zones.find((z) => SubnetOf[z] === id) ?? 'us-west-2c',
        AvailableIpAddressCount: ips[id] ?? 0,
      })),
    }))
    .on('describeLaunchTemplates', (input) => {
      const name = input.LaunchTemplateNames?.[0] ?? '';
      if (!templates.has(name)) throw awsError('InvalidLaunchTemplateName.NotFoundException');
      return { LaunchTemplates: [{ LaunchTemplateName: name, LaunchTemplateId: `lt-${name.length}` }] };
    })
    .on('createLaunchTemplate', (input) => {
      templates.add(input.LaunchTemplateName ?? '');
      return {
        LaunchTemplate: { LaunchTemplateName: input.LaunchTemplateName, LaunchTemplateId: `lt-${nextId++}` },
      };
    })
    .on(
      'createFleet',
      fleet ??
        ((input) => {
          const o = input.LaunchTemplateConfigs?.[0]?.Overrides?.[0];
          return {
            Instances: [
              {
                InstanceIds: ['i-0123456789abcdef0'],
                InstanceType: o?.InstanceType,
                Lifecycle:
                  input.TargetCapacitySpecification?.DefaultTargetCapacityType === 'spot'
                    ? 'spot'
                    : 'on-demand',
                LaunchTemplateAndOverrides: { Overrides: { ...o } },
              },
            ],
          };
        }),
    );
  const unavailable = new UnavailableOfferingsCache(clock);
  const logger = recordingLogger();
  const launchTemplates = new LaunchTemplates({ ec2: ec2.api, clock });
  // The test kit's registry: a fresh one per world (this package does not import prom-client).
  const { registry } = new ControllerEnv();
  const metrics: InstanceLaunchMetrics = instanceLaunchMetrics(registry);
  const launcher = new FleetLauncher({
    ec2: ec2.api,
    launchTemplates,
    subnets: new Subnets({ ec2: ec2.api, clock }),
    unavailableOfferings: unavailable,
    logger,
    clusterName: 'test-cluster',
    clusterEndpoint: 'https://api.test-cluster.example.com',
    caBundle: 'Q0EtQlVORExF',
    metrics,
  });
  return { clock, ec2, templates, unavailable, logger, launcher, launchTemplates, metrics };
}
