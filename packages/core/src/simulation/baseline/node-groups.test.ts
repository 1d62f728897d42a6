import { describe, expect, it } from 'vitest';
import { fakeInstanceType } from '../../testing/fake-instance-types.js';
import { parseScenario } from '../scenario/parse-scenario.js';
import { chooseNodeGroups, HeadroomPods, NodeGroupLabel, nodeGroupName } from './node-groups.js';

const types = [
  fakeInstanceType({ name: 'tiny', cpu: '1', memory: '2Gi', price: 0.02 }),
  fakeInstanceType({ name: 'mid', cpu: '4', memory: '8Gi', price: 0.1 }),
  fakeInstanceType({ name: 'mid-arm', cpu: '4', memory: '8Gi', price: 0.08, arch: 'arm64' }),
  fakeInstanceType({ name: 'big', cpu: '16', memory: '64Gi', price: 0.5 }),
];

function scenario(requirements: string, podCpu: string, limits = '') {
  const parsed = parseScenario(
    `name: g
duration: 1h
catalog: fake
nodePools:
  - apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata: { name: web }
    spec:
      template:
        metadata: { labels: { team: web } }
        spec:
          nodeClassRef: { group: sim.nodewright.dev, kind: SimulatedNodeClass, name: default }
          requirements: ${requirements}
${limits}
workloads:
  deployments:
    - { name: a, replicas: 1, pod: { requests: { cpu: "${podCpu}", memory: 1Gi } } }
`,
    'g.yaml',
  );
  if (parsed.scenario === undefined) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('chooseNodeGroups', () => {
  it('picks per capacity type the cheapest admitted type holding the headroom of the largest pod', () => {
    const groups = chooseNodeGroups(
      scenario(
        '[{ key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand] }, { key: kubernetes.io/arch, operator: In, values: [amd64] }]',
        '1',
      ),
      types,
    );
    // 4 x 1 cpu needs 4 cpu: tiny is too small, mid-arm is not admitted.
    expect(HeadroomPods).toBe(4);
    expect(groups.map((g) => [g.name, g.instanceType.name])).toEqual([
      ['web-on-demand', 'mid'],
      ['web-spot', 'mid'],
    ]);
    expect(groups[0]?.labels).toEqual({ team: 'web', [NodeGroupLabel]: 'web-on-demand' });
    expect(groups[0]?.maxSize).toBe(1000);
  });

  it('names a group after its NodePool alone when the NodePool already names the capacity type', () => {
    expect(nodeGroupName('spot', 'spot')).toBe('spot');
    expect(nodeGroupName('on-demand', 'on-demand')).toBe('on-demand');
    expect(nodeGroupName('batch-spot', 'spot')).toBe('batch-spot');
    expect(nodeGroupName('spot-web', 'spot')).toBe('spot-web');
    expect(nodeGroupName('spot', 'on-demand')).toBe('spot-on-demand');
    expect(nodeGroupName('spotty', 'spot')).toBe('spotty-spot');
    expect(nodeGroupName('web', 'spot')).toBe('web-spot');
  });

  it('defaults to on-demand and sizes the group from the cpu limit', () => {
    const groups = chooseNodeGroups(scenario('[]', '2', '      limits: { cpu: "64" }'), types);
    expect(groups.map((g) => [g.name, g.instanceType.name, g.maxSize])).toEqual([
      ['web-on-demand', 'big', 4],
    ]);
  });
});
