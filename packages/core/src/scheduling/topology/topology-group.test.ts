import { describe, expect, it } from 'vitest';
import { Requirement } from '../requirements/requirement.js';
import { DomainRegistry } from './domain-registry.js';
import { NamespaceResolver } from './group-specs.js';
import { NoNodeFilter } from './node-filter.js';
import { FreshDomain, TopologyGroup, type TopologyGroupSpec } from './topology-group.js';

function group(type: TopologyGroupSpec['type'], key = 'zone', o: Partial<TopologyGroupSpec> = {}) {
  const registry = new DomainRegistry(key);
  const g = new TopologyGroup(
    0,
    {
      type,
      key,
      namespaces: new Set(['default']),
      selector: { matchLabels: { app: 'w' } },
      maxSkew: 1,
      minDomains: undefined,
      filter: NoNodeFilter,
      ...o,
    },
    registry,
    'h',
  );
  const ids = ['c', 'a', 'b'].map((d) => registry.id(d));
  for (const id of ids) g.register(id);
  return { g, registry, id: (d: string) => registry.find(d) };
}

const names = (g: TopologyGroup, out: number[]) => out.map((d) => g.domains.name(d));

describe('TopologyGroup', () => {
  it('spread picks the least populated domain within skew, by name on ties', () => {
    const { g, id } = group('spread');
    const out: number[] = [];
    g.allowedDomains(true, undefined, undefined, -1, out);
    expect(names(g, out)).toEqual(['a']);
    g.record(id('a'));
    g.allowedDomains(true, undefined, undefined, -1, out);
    expect(names(g, out)).toEqual(['b']);
    expect(g.allowedDomains(true, undefined, Requirement.create('zone', 'In', ['a']), -1, out)).toBe(0);
    g.record(id('b'));
    g.record(id('c'));
    g.allowedDomains(true, undefined, Requirement.create('zone', 'In', ['a']), -1, out);
    expect(names(g, out)).toEqual(['a']);
  });

  it('spread takes the minimum over the domains the pod may use, and minDomains', () => {
    const { g, id } = group('spread', 'zone', { minDomains: 3 });
    g.record(id('a'));
    g.record(id('b'));
    const onlyAB = Requirement.create('zone', 'In', ['a', 'b']);
    expect(g.minCount(onlyAB)).toBe(0);
    const { g: g2, id: id2 } = group('spread');
    g2.record(id2('a'));
    g2.record(id2('b'));
    expect(g2.minCount(onlyAB)).toBe(1);
    expect(g2.minCount(undefined)).toBe(0);
  });

  it('hostname spread always allows a fresh node', () => {
    const { g } = group('spread', 'kubernetes.io/hostname');
    const out: number[] = [];
    expect(g.allowedDomains(true, undefined, undefined, FreshDomain, out)).toBe(1);
    expect(g.minCount(undefined)).toBe(0);
  });

  it('affinity follows populated domains, and bootstraps only when nothing matches anywhere', () => {
    const { g, id } = group('affinity');
    const out: number[] = [];
    expect(g.allowedDomains(false, undefined, undefined, -1, out)).toBe(0);
    g.allowedDomains(true, undefined, undefined, -1, out);
    expect(names(g, out)).toEqual(['a']);
    g.record(id('c'));
    g.allowedDomains(true, undefined, undefined, -1, out);
    expect(names(g, out)).toEqual(['c']);
    expect(g.allowedDomains(true, Requirement.create('zone', 'In', ['a']), undefined, -1, out)).toBe(0);
  });

  it('anti-affinity allows only empty domains', () => {
    const { g, id } = group('anti-affinity');
    g.record(id('a'));
    const out: number[] = [];
    g.allowedDomains(false, undefined, undefined, -1, out);
    expect(names(g, out)).toEqual(['b', 'c']);
  });

  it('selects by namespace and labels', () => {
    const { g } = group('spread');
    expect(g.selects('default', { app: 'w' })).toBe(true);
    expect(g.selects('prod', { app: 'w' })).toBe(false);
    expect(g.selects('default', { app: 'x' })).toBe(false);
  });
});

describe('NamespaceResolver', () => {
  const r = new NamespaceResolver(['default', 'data', 'prod']);
  it('resolves lists, the own namespace, empty and name selectors', () => {
    expect([...(r.resolve('default', undefined, undefined) as Set<string>)]).toEqual(['default']);
    expect([...(r.resolve('default', ['data'], undefined) as Set<string>)]).toEqual(['data']);
    expect(r.resolve('default', undefined, {})).toBe('all');
    const byName = r.resolve('default', undefined, {
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['data', 'prod'] }],
    });
    expect([...(byName as Set<string>)]).toEqual(['data', 'prod']);
    expect([...(r.resolve('default', undefined, { matchLabels: { team: 'x' } }) as Set<string>)]).toEqual([
      'default',
    ]);
  });
});
