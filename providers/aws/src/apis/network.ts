import { int32, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

export const MaxNetworkInterfaces = 150;

/** A network interface attached at launch. */
export const networkInterfaceSchema = z
  .strictObject({
    networkCardIndex: int32().min(0, 'must not be negative').describe('The network card the interface uses.'),
    deviceIndex: int32().min(0, 'must not be negative').describe('The device index of the attachment.'),
    interfaceType: z
      .enum(['interface', 'efa-only'], { error: 'must be one of interface, efa-only' })
      .describe('interface, or efa-only for an EFA device without IP networking.'),
  })
  .describe('A network interface.');

type NetworkInterface = z.output<typeof networkInterfaceSchema>;

/** Interfaces: a primary one (card 0, device 0), no repeated slot, at most one EFA device per card. */
export const networkInterfacesSchema = withRules(
  z
    .array(networkInterfaceSchema)
    .max(MaxNetworkInterfaces, `must have at most ${MaxNetworkInterfaces} network interfaces`),
  [
    {
      cel: {
        rule: "self.size() == 0 || self.exists(x, x.deviceIndex == 0 && x.networkCardIndex == 0 && x.interfaceType == 'interface')",
        message:
          'network interfaces must include a primary interface (networkCardIndex 0, deviceIndex 0, interfaceType interface)',
      },
      check: (list: NetworkInterface[]) =>
        list.length > 0 &&
        !list.some(
          (x) => x.deviceIndex === 0 && x.networkCardIndex === 0 && x.interfaceType === 'interface',
        ) &&
        {},
    },
    {
      cel: {
        rule: 'self.all(x, self.exists_one(y, x.networkCardIndex == y.networkCardIndex && x.deviceIndex == y.deviceIndex))',
        message: 'network interfaces must not repeat a networkCardIndex and deviceIndex pair',
      },
      check: (list: NetworkInterface[]) =>
        list.flatMap((x, i) =>
          list.findIndex(
            (y) => y.networkCardIndex === x.networkCardIndex && y.deviceIndex === x.deviceIndex,
          ) < i
            ? [{ path: [i] }]
            : [],
        ),
    },
    {
      cel: {
        rule: "self.all(x, x.interfaceType != 'efa-only' || self.exists_one(y, y.interfaceType == 'efa-only' && y.networkCardIndex == x.networkCardIndex))",
        message: 'each network card may have at most one efa-only interface',
      },
      check: (list: NetworkInterface[]) =>
        list.flatMap((x, i) =>
          x.interfaceType === 'efa-only' &&
          list.findIndex((y) => y.interfaceType === 'efa-only' && y.networkCardIndex === x.networkCardIndex) <
            i
            ? [{ path: [i] }]
            : [],
        ),
    },
  ],
).describe('Network interfaces for the nodes.');

/** Idle connection-tracking timeouts (seconds) for the interfaces nodewright creates. */
export const connectionTrackingSchema = withRules(
  z
    .strictObject({
      tcpEstablishedTimeout: int32()
        .min(60, 'must be at least 60')
        .max(432000, 'must be at most 432000')
        .describe('Seconds an idle established TCP connection is tracked.')
        .optional(),
      udpStreamTimeout: int32()
        .min(60, 'must be at least 60')
        .max(180, 'must be at most 180')
        .describe('Seconds an idle UDP stream is tracked.')
        .optional(),
      udpTimeout: int32()
        .min(30, 'must be at least 30')
        .max(60, 'must be at most 60')
        .describe('Seconds an idle one-way UDP flow is tracked.')
        .optional(),
    })
    .describe('Connection-tracking timeouts.'),
  [
    {
      cel: {
        rule: 'has(self.tcpEstablishedTimeout) || has(self.udpStreamTimeout) || has(self.udpTimeout)',
        message: 'set at least one of tcpEstablishedTimeout, udpStreamTimeout, udpTimeout',
      },
      check: (c) =>
        c.tcpEstablishedTimeout === undefined &&
        c.udpStreamTimeout === undefined &&
        c.udpTimeout === undefined &&
        {},
    },
  ],
);
