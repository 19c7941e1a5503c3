// Every Playground payload template is a valid payload for its event and phase: request templates
// against the MCP SDK's params schema for the method, response templates against its result schema
// (llm/completion, which the SDK does not define, against the SDK-type shape of spec §3.8).
import { describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { KNOWN_EVENTS } from '../../src/shared/protocol/constants';
import { allPayloadTemplates, payloadTemplate, TEMPLATE_EVENTS } from '../../src/shared/templates/payloads';

type SpecName = keyof typeof specTypeSchemas;

const SDK_SCHEMAS: Record<string, { request: SpecName | z.ZodType; response: SpecName | z.ZodType }> = {
  'tools/list': { request: 'PaginatedRequestParams', response: 'ListToolsResult' },
  'tools/call': { request: 'CallToolRequestParams', response: 'CallToolResult' },
  'prompts/list': { request: 'PaginatedRequestParams', response: 'ListPromptsResult' },
  'prompts/get': { request: 'GetPromptRequestParams', response: 'GetPromptResult' },
  'resources/list': { request: 'PaginatedRequestParams', response: 'ListResourcesResult' },
  'resources/read': { request: 'ReadResourceRequestParams', response: 'ReadResourceResult' },
  'resources/subscribe': { request: 'SubscribeRequestParams', response: 'EmptyResult' },
  'sampling/createMessage': { request: 'CreateMessageRequestParams', response: 'CreateMessageResult' },
  'elicitation/create': { request: 'ElicitRequestParams', response: 'ElicitResult' },
  // roots/list has no params schema of its own (just the base request params): an empty strict object.
  'roots/list': { request: z.strictObject({}), response: 'ListRootsResult' },
  // Spec §3.8 SDK types: not in the MCP SDK.
  'llm/completion': {
    request: z.strictObject({
      model: z.string().optional(),
      messages: z.array(z.strictObject({ role: z.string(), content: z.string() })).optional(),
      maxTokens: z.number().int().positive().optional(),
      temperature: z.number().min(0).max(2).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    }),
    response: z.strictObject({
      model: z.string().optional(),
      message: z.strictObject({ role: z.string(), content: z.string() }).optional(),
      stopReason: z.string().optional(),
      usage: z.strictObject({ inputTokens: z.number().int().optional(), outputTokens: z.number().int().optional(), totalTokens: z.number().int().optional() }).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    }),
  },
};

function issues(schema: SpecName | z.ZodType, value: unknown): string[] {
  if (typeof schema !== 'string') {
    const r = schema.safeParse(value);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  }
  const r = specTypeSchemas[schema]['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('async schema');
  return r.issues ? r.issues.map((i) => `${(i.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)).join('.')}: ${i.message}`) : [];
}

describe('payload templates', () => {
  it('cover every known event in both phases', () => {
    expect([...TEMPLATE_EVENTS].sort()).toEqual([...KNOWN_EVENTS].sort());
    expect(allPayloadTemplates()).toHaveLength(KNOWN_EVENTS.length * 2);
  });

  for (const t of allPayloadTemplates()) {
    it(`${t.event} ${t.phase} is valid against ${String(typeof SDK_SCHEMAS[t.event]![t.phase] === 'string' ? SDK_SCHEMAS[t.event]![t.phase] : 'its shape')}`, () => {
      expect(issues(SDK_SCHEMAS[t.event]![t.phase], t.payload)).toEqual([]);
    });
  }

  it('the schemas are strict enough to reject a broken template', () => {
    expect(issues('CallToolRequestParams', { arguments: {} }).length).toBeGreaterThan(0);
    expect(issues('CallToolResult', { content: [{ type: 'text' }] }).length).toBeGreaterThan(0);
    expect(issues(SDK_SCHEMAS['llm/completion']!.response, { message: { role: 'assistant' } }).length).toBeGreaterThan(0);
  });

  it('hands out copies, and a neutral payload for events without a template', () => {
    const a = payloadTemplate('tools/call', 'request');
    (a.payload as { name: string }).name = 'changed';
    expect((payloadTemplate('tools/call', 'request').payload as { name: string }).name).toBe('echo');
    expect(payloadTemplate('custom/thing', 'request').payload).toEqual({});
  });
});
