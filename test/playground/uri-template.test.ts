// The Client tab's URI template helper (src/shared/protocol/uri-template.ts) names the variables and
// expands a template the way the MCP SDK's own UriTemplate does, so the URI read is the one the server's
// template matches.
import { describe, expect, it } from 'vitest';
import { UriTemplate } from '@modelcontextprotocol/client';
import { expandTemplate, templateVariables } from '../../src/shared/protocol/uri-template';

const CASES: [string, Record<string, string>][] = [
  ['demo://resource/dynamic/text/{resourceId}', { resourceId: '42' }],
  ['file:///{path}', { path: 'a b/c' }],
  ['file:///{+path}', { path: 'a/b c' }],
  ['users://{user}/repos{/repo}{?sort,page}', { user: 'ann', repo: 'x', sort: 'stars', page: '2' }],
  ['search://{?q}', { q: 'a&b=c' }],
];

describe('URI templates of resource templates', () => {
  it.each(CASES)('%s: variables and expansion match the SDK', (template, values) => {
    const sdk = new UriTemplate(template);
    expect(templateVariables(template)).toEqual(sdk.variableNames);
    expect(expandTemplate(template, values)).toBe(sdk.expand(values));
  });

  it('names each variable once, in order, and leaves an unfilled one out', () => {
    expect(templateVariables('x://{a}/{b}/{a}{?c,b}')).toEqual(['a', 'b', 'c']);
    expect(expandTemplate('x://{a}{?b,c}', { a: 'one', c: '3' })).toBe('x://one?c=3');
  });
});
