import { describe, expect, it } from 'vitest';
import { convertManifests } from './convert-manifests.js';
import type { Converter, Delivery } from './converter.js';

const widgetV1 = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  ...extra,
});

/** Renames `old` to `new` and sends `gift` to the Box named in `box`. */
const widgetConverter: Converter = {
  from: { apiVersion: 'example.com/v1', kind: 'Widget' },
  convert(obj, ctx) {
    obj.apiVersion = 'example.com/v2';
    if ('old' in obj) {
      obj.new = obj.old;
      delete obj.old;
    }
    if (typeof obj.box === 'string') {
      ctx.handOff({ group: 'boxes.example.com', kind: 'Box', name: obj.box }, 'gift', obj.gift, 'gift');
      delete obj.gift;
    }
    if (obj.warnMe === true) ctx.warn('warnMe', 'was set');
    return obj;
  },
};

/** A Box converter that records what it received and stores the gifts on the box. */
function recordingBoxConverter() {
  const received: Array<{ target: string; deliveries: readonly Delivery[] }> = [];
  const converter: Converter = {
    from: { apiVersion: 'boxes.example.com/v1alpha1', kind: 'Box' },
    convert(obj) {
      obj.apiVersion = 'boxes.example.com/v1';
      return obj;
    },
    receives: {
      group: 'boxes.example.com',
      kind: 'Box',
      topics: ['gift'],
      receive(obj, _topic, deliveries, ctx) {
        received.push({ target: ctx.object, deliveries });
        obj.gifts = deliveries.filter((d) => d.value !== undefined).map((d) => d.value);
        if (deliveries.length > 1) deliveries[1]!.warn('second gift');
        return obj;
      },
    },
  };
  return { converter, received };
}

const box = (name: string, apiVersion = 'boxes.example.com/v1alpha1') => ({
  apiVersion,
  kind: 'Box',
  metadata: { name },
});

describe('convertManifests', () => {
  it('converts matching objects and passes others through in order, unchanged and uncopied', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    const input = [pod, widgetV1('a', { old: 1 }), { apiVersion: 'example.com/v2', kind: 'Widget' }];
    const result = convertManifests(input, [widgetConverter]);
    expect(result.objects[0]).toBe(pod);
    expect(result.objects[1]).toEqual({
      apiVersion: 'example.com/v2',
      kind: 'Widget',
      metadata: { name: 'a' },
      new: 1,
    });
    expect(result.objects[2]).toBe(input[2]);
    expect(result.warnings).toEqual([]);
  });

  it('never mutates its input', () => {
    const input = [widgetV1('a', { old: 1, box: 'b', gift: 'x' }), box('b', 'boxes.example.com/v1')];
    const before = structuredClone(input);
    convertManifests(input, [widgetConverter, recordingBoxConverter().converter]);
    expect(input).toEqual(before);
  });

  it('names warnings by Kind/name, or by position for unnamed objects', () => {
    const result = convertManifests(
      [widgetV1('a', { warnMe: true }), { apiVersion: 'example.com/v1', kind: 'Widget', warnMe: true }],
      [widgetConverter],
    );
    expect(result.warnings).toEqual([
      { object: 'Widget/a', field: 'warnMe', message: 'was set' },
      { object: 'Widget/<unnamed #2>', field: 'warnMe', message: 'was set' },
    ]);
  });

  it('delivers hand-offs to a target converted earlier or later, or already current', () => {
    const { converter: boxConverter, received } = recordingBoxConverter();
    const result = convertManifests(
      [
        box('early'),
        widgetV1('a', { box: 'early', gift: 1 }),
        widgetV1('b', { box: 'current', gift: 2 }),
        box('current', 'boxes.example.com/v1'),
      ],
      [widgetConverter, boxConverter],
    );
    expect(result.objects[0]).toMatchObject({ apiVersion: 'boxes.example.com/v1', gifts: [1] });
    expect(result.objects[3]).toMatchObject({ apiVersion: 'boxes.example.com/v1', gifts: [2] });
    expect(received.map((r) => r.target)).toEqual(['Box/early', 'Box/current']);
    expect(result.warnings).toEqual([]);
  });

  it('groups deliveries per target and topic, in input order, and lets the receiver warn the sender', () => {
    const { converter: boxConverter, received } = recordingBoxConverter();
    const result = convertManifests(
      [widgetV1('a', { box: 'b', gift: 1 }), box('b'), widgetV1('c', { box: 'b', gift: 3 })],
      [widgetConverter, boxConverter],
    );
    expect(received).toHaveLength(1);
    expect(received[0]?.deliveries.map((d) => [d.from, d.field, d.value])).toEqual([
      ['Widget/a', 'gift', 1],
      ['Widget/c', 'gift', 3],
    ]);
    expect(result.objects[1]).toMatchObject({ gifts: [1, 3] });
    expect(result.warnings).toEqual([{ object: 'Widget/c', field: 'gift', message: 'second gift' }]);
  });

  it('warns the sender when the target is not among the inputs, quoting the value', () => {
    const { converter: boxConverter } = recordingBoxConverter();
    const result = convertManifests(
      [widgetV1('a', { box: 'missing', gift: { n: 1 } })],
      [widgetConverter, boxConverter],
    );
    expect(result.warnings).toEqual([
      {
        object: 'Widget/a',
        field: 'gift',
        message:
          'not carried over: Box/missing is not among the inputs; convert it together with this object, or add the gift to it by hand; value: {"n":1}',
      },
    ]);
  });

  it('warns the sender when no receiver handles the target kind', () => {
    const result = convertManifests([widgetV1('a', { box: 'b', gift: 7 }), box('b')], [widgetConverter]);
    expect(result.warnings).toEqual([
      {
        object: 'Widget/a',
        field: 'gift',
        message:
          'not carried over: nodewright has no conversion that moves gift into Box (boxes.example.com); set it on Box/b by hand if that kind supports it; value: 7',
      },
    ]);
  });

  it('stays silent about undeliverable hand-offs that carry no value', () => {
    const { converter: boxConverter } = recordingBoxConverter();
    const result = convertManifests([widgetV1('a', { box: 'missing' })], [widgetConverter, boxConverter]);
    expect(result.warnings).toEqual([]);
  });

  it('matches targets by group, kind and name', () => {
    const { converter: boxConverter, received } = recordingBoxConverter();
    const result = convertManifests(
      [
        widgetV1('a', { box: 'b', gift: 1 }),
        { apiVersion: 'other.example.com/v1', kind: 'Box', metadata: { name: 'b' } },
        { apiVersion: 'boxes.example.com/v1', kind: 'Crate', metadata: { name: 'b' } },
      ],
      [widgetConverter, boxConverter],
    );
    expect(received).toHaveLength(0);
    expect(result.warnings[0]?.message).toContain('Box/b is not among the inputs');
  });
});
