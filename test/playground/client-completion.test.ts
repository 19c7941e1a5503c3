// completion/complete from the built-in client for a resource template's URI variable (ref/resource),
// against a real server-everything over stdio, through the validating dispatcher as the renderer calls it;
// and the input's one-of rule (a prompt argument or a template variable, exactly one).
import { beforeAll, describe, expect, it } from 'vitest';
import { serverEverythingEntry } from '../../src/main/services/examples';
import { useClientCore } from './support/client-core';

let sessionId: string;
const { call, fails } = useClientCore('ic-client-completion-');
const everythingCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(serverEverythingEntry()!)} stdio`;
// server-everything completes {resourceId} of its dynamic templates: a positive integer is suggested back, anything else is not.
const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';

// Runs after the core has started (the fixture's beforeAll is registered first).
beforeAll(async () => {
  ({ sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: everythingCommand } }));
}, 60_000);

describe('completion of a resource template variable (ref/resource)', { timeout: 60_000 }, () => {
  it("asks the server for a listed template's variable and returns its suggestions", async () => {
    const { resourceTemplates } = await call<{ resourceTemplates: { uriTemplate: string }[] }>('client.list', { sessionId });
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(TEXT_TEMPLATE);
    const id = await call<{ values: string[] }>('client.complete', {
      sessionId,
      resourceTemplate: TEXT_TEMPLATE,
      argument: { name: 'resourceId', value: '42' },
      context: {},
    });
    expect(id.values).toEqual(['42']);
    const notAnId = await call<{ values: string[] }>('client.complete', {
      sessionId,
      resourceTemplate: TEXT_TEMPLATE,
      argument: { name: 'resourceId', value: 'x' },
    });
    expect(notAnId.values).toEqual([]);
    // The suggested value fills a URI the server reads.
    const read = await call<{ result: { contents: { uri: string; text: string }[] } }>('client.readResource', {
      sessionId,
      uri: TEXT_TEMPLATE.replace('{resourceId}', id.values[0]!),
    });
    expect(read.result.contents[0]!.text).toMatch(/^Resource 42:/);
  });

  it('still completes prompt arguments (ref/prompt)', async () => {
    const r = await call<{ values: string[] }>('client.complete', { sessionId, prompt: 'completable-prompt', argument: { name: 'department', value: 'E' } });
    expect(r.values).toEqual(['Engineering']);
  });

  it('takes a prompt or a resource template, exactly one, and says so', async () => {
    const argument = { name: 'resourceId', value: '1' };
    const neither = await fails('client.complete', { sessionId, argument });
    expect(neither.code).toBe('invalid_input');
    expect(neither.message).toMatch(/either prompt .* or resourceTemplate .*exactly one/);
    const both = await fails('client.complete', { sessionId, argument, prompt: 'completable-prompt', resourceTemplate: TEXT_TEMPLATE });
    expect(both).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/exactly one/) });
  });
});
