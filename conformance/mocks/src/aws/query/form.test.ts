import { describe, expect, it } from 'vitest';
import { int, parseQueryForm, str, strs, structs } from './form.js';

describe('parseQueryForm', () => {
  it('decodes .N lists into nested structures in index order', () => {
    const q = parseQueryForm(
      'Action=DescribeInstances&Filter.2.Name=tag-key&Filter.2.Value.1=k&Filter.1.Name=tag%3AName' +
        '&Filter.1.Value.2=b&Filter.1.Value.1=a&InstanceId.1=i-1&MaxResults=5',
    );
    expect(str(q, 'Action')).toBe('DescribeInstances');
    expect(structs(q, 'Filter')).toEqual([
      { Name: 'tag:Name', Value: ['a', 'b'] },
      { Name: 'tag-key', Value: ['k'] },
    ]);
    expect(strs(q, 'InstanceId')).toEqual(['i-1']);
    expect(int(q, 'MaxResults')).toBe(5);
  });

  it('decodes lists nested in lists (fleet overrides)', () => {
    const q = parseQueryForm(
      'LaunchTemplateConfigs.1.Overrides.1.InstanceType=m5.large&LaunchTemplateConfigs.1.Overrides.2.InstanceType=c5.large' +
        '&LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName=lt',
    );
    const [config] = structs(q, 'LaunchTemplateConfigs');
    expect(structs(config, 'Overrides').map((o) => o.InstanceType)).toEqual(['m5.large', 'c5.large']);
    expect(config?.LaunchTemplateSpecification).toEqual({ LaunchTemplateName: 'lt' });
  });

  it('names the field that is not a number', () => {
    expect(() => int(parseQueryForm('MaxResults=many'), 'MaxResults')).toThrow(/MaxResults/);
  });
});
