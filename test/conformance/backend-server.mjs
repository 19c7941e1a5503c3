// The MCP server the conformance backend serves: every tool, resource and prompt the official conformance
// suite's server scenarios call (@modelcontextprotocol/conformance, names read from its scenarios), written
// once with the v2 server SDK so one factory serves both eras. 2025-era requests reach the legacy
// server→client requests (sampling, elicitation); 2026-07-28 requests get input_required results (SEP-2322).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inputRequired, inputResponse, McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';

const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const AUDIO = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Releases the test_progress_until_released calls waiting now (test_release_progress calls it). */
const progressWaiters = new Set();

// requestState round-trips through the client: it is signed so tampering is detected (SEP-2322).
const stateKey = randomBytes(32);
const sign = (payload) => createHmac('sha256', stateKey).update(payload).digest('base64url');
function mintState(value) {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${sign(payload)}`;
}
function readState(raw) {
  if (typeof raw !== 'string') return undefined;
  const [payload, mac] = raw.split('.');
  const expected = payload ? sign(payload) : '';
  if (!mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState failed integrity verification');
  }
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

const nameForm = () =>
  inputRequired.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
const sample = (prompt) => inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 50 });
const responseOf = (ctx, key) => inputResponse(ctx.mcpReq.inputResponses, key);

/**
 * @param {{ notify?: { toolsChanged(): void; promptsChanged(): void }, closeSSE?: (ctx: unknown) => void }} hooks
 *   `notify` publishes list changes to open 2026 subscription streams (HTTP); `closeSSE` closes a 2025
 *   request's stream mid-call (SEP-1699 resumption).
 */
export function createConformanceServer(hooks = {}) {
  const server = new McpServer(
    { name: 'conformance-backend', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  const empty = { inputSchema: z.object({}) };

  server.registerTool('test_simple_text', { description: 'simple text' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'image' }, async () => ({ content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] }));
  server.registerTool('test_audio_content', { description: 'audio' }, async () => ({ content: [{ type: 'audio', data: AUDIO, mimeType: 'audio/wav' }] }));
  server.registerTool('test_embedded_resource', { description: 'embedded resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'mixed content' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
      },
    ],
  }));
  server.registerTool('test_tool_with_logging', { description: 'logs while running', ...empty }, async (_args, ctx) => {
    for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await sleep(50);
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool('test_tool_with_progress', { description: 'reports progress', ...empty }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken ?? 0;
    for (const progress of [0, 50, 100]) {
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
      });
      if (progress < 100) await sleep(50);
    }
    return text(String(progressToken));
  });
  // Not in the conformance suite: a call whose answer does not exist until another call releases it, so a
  // test can show its progress reached the client first without timing anything (test/transparency).
  server.registerTool(
    'test_progress_until_released',
    { description: 'reports progress, then waits for test_release_progress', ...empty },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken ?? 0;
      const released = new Promise((resolve) => progressWaiters.add(resolve));
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress: 0, total: 1, message: 'waiting for test_release_progress' },
      });
      await released;
      return text('released');
    },
  );
  server.registerTool('test_release_progress', { description: 'releases the waiting test_progress_until_released calls', ...empty }, async () => {
    const n = progressWaiters.size;
    for (const release of progressWaiters) release();
    progressWaiters.clear();
    return text(`released ${n}`);
  });
  server.registerTool('test_error_handling', { description: 'fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_reconnection', { description: 'closes its SSE stream mid-call (SEP-1699)', ...empty }, async (_args, ctx) => {
    hooks.closeSSE?.(ctx);
    await sleep(100);
    return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
  });
  server.registerTool('test_sampling', { description: 'sampling', inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }, ctx) => {
    const result = await ctx.mcpReq.send({
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
    });
    return text(`LLM response: ${result.content?.text ?? 'No response'}`);
  });
  const elicitTool = (name, message, properties) =>
    server.registerTool(
      name,
      { description: 'elicitation', ...(name === 'test_elicitation' ? { inputSchema: z.object({ message: z.string() }) } : empty) },
      async (args, ctx) => {
        const result = await ctx.mcpReq.send({
          method: 'elicitation/create',
          params: { message: args.message ?? message, requestedSchema: { type: 'object', properties, required: [] } },
        });
        return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
      },
    );
  elicitTool('test_elicitation', '', { response: { type: 'string', description: "User's response" } });
  elicitTool('test_elicitation_sep1034_defaults', 'Please review and update the form fields with defaults', {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  });
  elicitTool('test_elicitation_sep1330_enums', 'Please select options from the enum fields', {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  });
  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'JSON Schema 2020-12', inputSchema: z.object({ name: z.string().optional() }) },
    async (args) => text(JSON.stringify(args)),
  );
  server.registerTool('test_trigger_tool_change', { description: 'adds a tool' }, async () => {
    if (!added.tool) added.tool = server.registerTool('test_added_tool', { description: 'added' }, async () => text('added'));
    if (hooks.notify) hooks.notify.toolsChanged();
    else server.sendToolListChanged();
    return text('tool added');
  });
  server.registerTool('test_trigger_prompt_change', { description: 'adds a prompt' }, async () => {
    if (!added.prompt)
      added.prompt = server.registerPrompt('test_added_prompt', { description: 'added' }, async () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'added' } }],
      }));
    if (hooks.notify) hooks.notify.promptsChanged();
    else server.sendPromptListChanged();
    return text('prompt added');
  });
  const added = {};
  registerInputRequiredTools(server, empty);
  registerResourcesAndPrompts(server);
  return server;
}

// SEP-2322 (2026-07-28): the server asks for input by returning input_required; the client retries with answers.
function registerInputRequiredTools(server, empty) {
  const tool = (name, handler) => server.registerTool(name, { description: name, ...empty }, (_args, ctx) => handler(ctx));
  tool('test_input_required_result_elicitation', (ctx) => {
    const r = responseOf(ctx, 'user_name');
    return r.kind === 'elicit' ? text(`Hello, ${r.content?.name ?? 'nobody'}`) : inputRequired({ inputRequests: { user_name: nameForm() } });
  });
  tool('test_input_required_result_sampling', (ctx) => {
    const r = responseOf(ctx, 'completion');
    return r.kind === 'sampling'
      ? text(`sampled: ${r.result.content?.text ?? ''}`)
      : inputRequired({ inputRequests: { completion: sample('What is the capital of France?') } });
  });
  tool('test_input_required_result_list_roots', (ctx) => {
    const r = responseOf(ctx, 'roots');
    return r.kind === 'roots' ? text(`roots: ${r.roots.map((x) => x.uri).join(', ')}`) : inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  });
  tool('test_input_required_result_request_state', (ctx) => {
    const state = readState(ctx.mcpReq.requestState());
    if (state?.round === 1 && responseOf(ctx, 'user_name').kind === 'elicit') return text('state-ok');
    return inputRequired({ inputRequests: { user_name: nameForm() }, requestState: mintState({ round: 1 }) });
  });
  tool('test_input_required_result_tampered_state', (ctx) => {
    const state = readState(ctx.mcpReq.requestState());
    if (state?.round === 1) return text('state-ok');
    return inputRequired({ inputRequests: { confirm: nameForm() }, requestState: mintState({ round: 1 }) });
  });
  tool('test_input_required_result_multiple_inputs', (ctx) => {
    const kinds = { user_name: 'elicit', completion: 'sampling', roots: 'roots' };
    if (Object.entries(kinds).every(([key, kind]) => responseOf(ctx, key).kind === kind)) return text('all inputs received');
    return inputRequired({ inputRequests: { user_name: nameForm(), completion: sample('Say hello'), roots: inputRequired.listRoots() } });
  });
  tool('test_input_required_result_multi_round', (ctx) => {
    const state = readState(ctx.mcpReq.requestState());
    const round = state?.round ?? 0;
    if (round === 0) return inputRequired({ inputRequests: { step1: nameForm() }, requestState: mintState({ round: 1 }) });
    if (round === 1 && responseOf(ctx, 'step1').kind === 'elicit')
      return inputRequired({ inputRequests: { step2: nameForm() }, requestState: mintState({ round: 2 }) });
    if (round === 2 && responseOf(ctx, 'step2').kind === 'elicit') return text('multi-round complete');
    return inputRequired({ inputRequests: { [`step${round}`]: nameForm() }, requestState: mintState({ round }) });
  });
  tool('test_input_required_result_capabilities', (ctx) => {
    const caps = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? {};
    const requests = {};
    if (caps.elicitation && responseOf(ctx, 'user_name').kind !== 'elicit') requests.user_name = nameForm();
    if (caps.sampling && responseOf(ctx, 'completion').kind !== 'sampling') requests.completion = sample('Say hello');
    if (caps.roots && responseOf(ctx, 'roots').kind !== 'roots') requests.roots = inputRequired.listRoots();
    return Object.keys(requests).length > 0 ? inputRequired({ inputRequests: requests }) : text('capabilities respected');
  });
  tool('test_missing_capability', (ctx) =>
    responseOf(ctx, 'capability_sample').kind === 'sampling'
      ? text('Success')
      : inputRequired({ inputRequests: { capability_sample: sample('Need sampling to continue') } }),
  );
  server.registerPrompt('test_input_required_result_prompt', { description: 'asks for context first' }, async (ctx) => {
    const r = inputResponse(ctx?.mcpReq?.inputResponses, 'context');
    if (r.kind === 'elicit') return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${r.content?.context ?? ''}` } }] };
    return inputRequired({
      inputRequests: {
        context: inputRequired.elicit({
          message: 'Context?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        }),
      },
    });
  });
}

function registerResourcesAndPrompts(server) {
  const subscriptions = new Set();
  server.registerResource('static-text', 'test://static-text', { description: 'static text', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { description: 'static binary', mimeType: 'image/png' }, async () => ({
    contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: IMAGE }],
  }));
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'template', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
    }),
  );
  server.registerResource('watched-resource', 'test://watched-resource', { description: 'watched', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  }));
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.registerPrompt('test_simple_prompt', { description: 'simple' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'arguments', argsSchema: z.object({ arg1: z.string(), arg2: z.string() }) },
    async ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'embedded resource', argsSchema: z.object({ resourceUri: z.string() }) },
    async ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'image' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  // As the reference fixture does: the acknowledgement is an unrelated notification (the GET stream over HTTP).
  server.server.setRequestHandler('logging/setLevel', async (request) => {
    await server.server
      .notification({
        method: 'notifications/message',
        params: { level: 'info', logger: 'conformance-backend', data: `Log level set to: ${request.params.level}` },
      })
      .catch(() => undefined);
    return {};
  });
  server.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }));
}
