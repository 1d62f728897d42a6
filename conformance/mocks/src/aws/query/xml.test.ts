import { describe, expect, it } from 'vitest';
import { ec2ErrorResponse, ec2Response, toXml } from './xml.js';

describe('toXml', () => {
  it('writes arrays as item lists, dates as ISO, skips undefined and escapes text', () => {
    expect(toXml({ a: [{ b: 1 }, { b: 2 }], t: new Date(0), u: undefined, s: '<&>', ok: true })).toBe(
      '<a><item><b>1</b></item><item><b>2</b></item></a><t>1970-01-01T00:00:00.000Z</t><s>&lt;&amp;&gt;</s><ok>true</ok>',
    );
  });

  it('wraps a body in the action response with the EC2 namespace and request id', () => {
    expect(ec2Response('DescribeSubnets', 'r-1', { subnetSet: [] })).toContain(
      '<DescribeSubnetsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r-1</requestId><subnetSet></subnetSet></DescribeSubnetsResponse>',
    );
    expect(ec2ErrorResponse('X.Y', 'a & b', 'r-2')).toContain('<Code>X.Y</Code><Message>a &amp; b</Message>');
  });
});
