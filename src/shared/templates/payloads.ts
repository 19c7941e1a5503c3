// Realistic payload templates per event and phase, as an interceptor receives them (A1): the request
// phase carries the bare request params, the response phase the method's result. Each one is valid
// against the MCP SDK's schema for that params/result (test/playground/templates.test.ts checks it),
// and they exercise the samples: an e-mail address for email-redactor, room for an SSN, and so on.
import type { Phase } from '../protocol/constants';

export interface PayloadTemplate {
  event: string;
  phase: Phase;
  /** One line for the picker. */
  title: string;
  payload: unknown;
}

type Pair = { request: { title: string; payload: unknown }; response: { title: string; payload: unknown } };

const tool = {
  name: 'echo',
  title: 'Echo',
  description: 'Echoes back the input message',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'Message to echo' } },
    required: ['message'],
  },
};

const TEMPLATES: Record<string, Pair> = {
  'tools/list': {
    request: { title: 'List tools (first page)', payload: {} },
    response: {
      title: 'Two tools, one with an output schema',
      payload: {
        tools: [
          tool,
          {
            name: 'get-weather',
            description: 'Current weather for a city',
            inputSchema: {
              type: 'object',
              properties: { city: { type: 'string' }, units: { type: 'string', enum: ['metric', 'imperial'] } },
              required: ['city'],
            },
            outputSchema: { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature'] },
            annotations: { readOnlyHint: true },
          },
        ],
      },
    },
  },
  'tools/call': {
    request: {
      title: 'Call echo with an e-mail address in the arguments',
      payload: { name: 'echo', arguments: { message: 'Please forward the report to alice@example.com' } },
    },
    response: {
      title: 'Text result that leaks an e-mail address',
      payload: {
        content: [{ type: 'text', text: 'Echo: Please forward the report to alice@example.com' }],
        isError: false,
      },
    },
  },
  'prompts/list': {
    request: { title: 'List prompts', payload: {} },
    response: {
      title: 'A prompt with arguments',
      payload: {
        prompts: [
          {
            name: 'code-review',
            description: 'Review a change for bugs and style',
            arguments: [
              { name: 'language', description: 'Programming language', required: true },
              { name: 'focus', description: 'What to look at first' },
            ],
          },
        ],
      },
    },
  },
  'prompts/get': {
    request: { title: 'Get the code-review prompt', payload: { name: 'code-review', arguments: { language: 'TypeScript', focus: 'error handling' } } },
    response: {
      title: 'Prompt messages',
      payload: {
        description: 'Review a change for bugs and style',
        messages: [{ role: 'user', content: { type: 'text', text: 'Review this TypeScript change, focusing on error handling.' } }],
      },
    },
  },
  'resources/list': {
    request: { title: 'List resources', payload: {} },
    response: {
      title: 'Two resources',
      payload: {
        resources: [
          { uri: 'file:///project/README.md', name: 'README.md', mimeType: 'text/markdown' },
          { uri: 'db://customers/42', name: 'Customer 42', description: 'A customer record', mimeType: 'application/json' },
        ],
      },
    },
  },
  'resources/read': {
    request: { title: 'Read a customer record', payload: { uri: 'db://customers/42' } },
    response: {
      title: 'JSON contents with personal data',
      payload: {
        contents: [
          {
            uri: 'db://customers/42',
            mimeType: 'application/json',
            text: '{"name":"Alice Example","email":"alice@example.com","ssn":"123-45-6789"}',
          },
        ],
      },
    },
  },
  'resources/subscribe': {
    request: { title: 'Subscribe to a resource', payload: { uri: 'file:///project/README.md' } },
    response: { title: 'Empty result (subscribed)', payload: {} },
  },
  'sampling/createMessage': {
    request: {
      title: 'Ask the client model to summarise',
      payload: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the ticket from bob@example.com in one sentence.' } }],
        systemPrompt: 'You are a concise assistant.',
        maxTokens: 200,
        temperature: 0.2,
        modelPreferences: { hints: [{ name: 'claude' }], intelligencePriority: 0.6 },
      },
    },
    response: {
      title: 'Model answer',
      payload: {
        role: 'assistant',
        content: { type: 'text', text: 'Bob reports that exports fail on large files.' },
        model: 'claude-sonnet',
        stopReason: 'endTurn',
      },
    },
  },
  'elicitation/create': {
    request: {
      title: 'Ask the user for contact details',
      payload: {
        mode: 'form',
        message: 'Where should the report be sent?',
        requestedSchema: {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email', title: 'E-mail' },
            urgent: { type: 'boolean', title: 'Urgent', default: false },
          },
          required: ['email'],
        },
      },
    },
    response: { title: 'The user accepted', payload: { action: 'accept', content: { email: 'carol@example.com', urgent: true } } },
  },
  'roots/list': {
    request: { title: 'List roots', payload: {} },
    response: { title: 'Two roots', payload: { roots: [{ uri: 'file:///home/alice/project', name: 'project' }, { uri: 'file:///home/alice/notes' }] } },
  },
  'llm/completion': {
    request: {
      title: 'Completion request (SDK shape)',
      payload: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Draft a reply to dave@example.com about the invoice.' },
        ],
        maxTokens: 256,
        temperature: 0.7,
      },
    },
    response: {
      title: 'Completion result (SDK shape)',
      payload: {
        model: 'gpt-4o-mini',
        message: { role: 'assistant', content: 'Hi Dave, thanks for the invoice; it is scheduled for payment on Friday.' },
        stopReason: 'stop',
        usage: { inputTokens: 42, outputTokens: 18, totalTokens: 60 },
      },
    },
  },
};

/** Events that have templates, in the protocol's order. */
export const TEMPLATE_EVENTS = Object.keys(TEMPLATES);

/** The template for an event and phase (a deep copy, safe to edit); a generic `{}` for unknown events. */
export function payloadTemplate(event: string, phase: Phase): PayloadTemplate {
  const pair = TEMPLATES[event];
  if (!pair) return { event, phase, title: 'Empty payload (no template for this event)', payload: {} };
  const t = pair[phase];
  return { event, phase, title: t.title, payload: structuredClone(t.payload) };
}

export function allPayloadTemplates(): PayloadTemplate[] {
  return TEMPLATE_EVENTS.flatMap((event) => (['request', 'response'] as const).map((phase) => payloadTemplate(event, phase)));
}
