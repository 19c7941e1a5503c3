// What a payload should look like for each event and phase (A1: request = the method's params,
// response = its result), checked with the MCP SDK's own schemas where it has them and with the
// spec §3.8 SDK-type shape for llm/completion. The Playground uses it to warn (never to refuse: testing
// an interceptor against a malformed payload is legitimate); the templates test uses it to prove them.
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { Phase } from '../protocol/constants';

type SpecName = keyof typeof specTypeSchemas;
type Shape = { name: string; check: (value: unknown) => string[] };

const LlmMessage = z.strictObject({ role: z.string(), content: z.string() });
const LOCAL: Record<string, z.ZodType> = {
  'roots/list request': z.strictObject({ _meta: z.record(z.string(), z.unknown()).optional() }),
  'llm/completion request': z.strictObject({
    model: z.string().optional(),
    messages: z.array(LlmMessage).optional(),
    maxTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  'llm/completion response': z.strictObject({
    model: z.string().optional(),
    message: LlmMessage.optional(),
    stopReason: z.string().optional(),
    usage: z
      .strictObject({ inputTokens: z.number().int().optional(), outputTokens: z.number().int().optional(), totalTokens: z.number().int().optional() })
      .optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
};

const SDK: Record<string, [SpecName, SpecName]> = {
  'tools/list': ['PaginatedRequestParams', 'ListToolsResult'],
  'tools/call': ['CallToolRequestParams', 'CallToolResult'],
  'prompts/list': ['PaginatedRequestParams', 'ListPromptsResult'],
  'prompts/get': ['GetPromptRequestParams', 'GetPromptResult'],
  'resources/list': ['PaginatedRequestParams', 'ListResourcesResult'],
  'resources/read': ['ReadResourceRequestParams', 'ReadResourceResult'],
  'resources/subscribe': ['SubscribeRequestParams', 'EmptyResult'],
  'sampling/createMessage': ['CreateMessageRequestParams', 'CreateMessageResult'],
  'elicitation/create': ['ElicitRequestParams', 'ElicitResult'],
  'roots/list': ['PaginatedRequestParams', 'ListRootsResult'],
};

/** The expected shape of a payload, or undefined for events this app knows no shape for. */
export function payloadShape(event: string, phase: Phase): Shape | undefined {
  const local = LOCAL[`${event} ${phase}`];
  if (local) {
    return {
      name: event === 'llm/completion' ? `llm/completion ${phase} (spec §3.8 SDK type)` : `${event} params`,
      check: (value) => {
        const r = local.safeParse(value);
        return r.success ? [] : r.error.issues.map((i) => `${i.path.map(String).join('.') || '(payload)'}: ${i.message}`);
      },
    };
  }
  const pair = SDK[event];
  if (!pair) return undefined;
  const name = pair[phase === 'request' ? 0 : 1];
  return {
    name,
    check: (value) => {
      const r = specTypeSchemas[name]['~standard'].validate(value);
      if (r instanceof Promise) return [];
      return (r.issues ?? []).map((i) => `${(i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.') || '(payload)'}: ${i.message}`);
    },
  };
}
