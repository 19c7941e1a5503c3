// The forwarding scenario against the real server-everything: every forwarded method, every notification
// it can produce, sampling/elicitation/roots relayed to the client, progress and cancellation. Run over
// stdio and HTTP, with each kind of client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type AnyClient, type ClientKind, type Endpoint } from './everything-clients';
import { waitFor } from './helpers';

export const CLIENT_KINDS: ClientKind[] = ['v2', 'v2-auto', 'v1-2025-06-18'];

export function describeEverything(label: string, kind: ClientKind, endpoint: () => Endpoint): void {
  describe(`${label}: ${kind} client through the gateway to server-everything`, () => {
    let c: AnyClient;
    beforeAll(async () => {
      c = await connectClient(kind, endpoint());
    });
    afterAll(async () => {
      await c?.close();
    });

    it('negotiates a version and mirrors serverInfo, instructions and capabilities (minus tasks)', () => {
      expect(c.protocolVersion()).toBe(kind === 'v1-2025-06-18' ? '2025-06-18' : '2025-11-25');
      expect(c.serverInfo()?.name).toBe('mcp-servers/everything');
      expect(c.instructions()).toBeTruthy();
      const caps = c.capabilities()!;
      expect(Object.keys(caps).sort()).toEqual(expect.arrayContaining(['logging', 'prompts', 'resources', 'tools']));
      expect(caps.tasks).toBeUndefined();
      expect(caps.resources).toMatchObject({ subscribe: true, listChanged: true });
    });

    it('forwards tools/list (with list_changed for the capability-dependent tools) and tools/call', async () => {
      await waitFor(() => c.seen.toolsChanged > 0, 5000, 'tools/list_changed');
      const { tools } = await c.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']));
      const result = await c.callTool('echo', { message: 'through the gateway' });
      expect(result.content[0]?.text).toBe('Echo: through the gateway');
    });

    // Before the logging test: a client busy with log notifications may dispatch the last progress
    // notification after the response and drop it (client-side ordering, not the wire's).
    it('relays progress notifications for the request that asked for them', async () => {
      const progress: number[] = [];
      const result = await c.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onprogress: (p) => progress.push(p.progress) });
      expect(result.content[0]?.text).toContain('Long running operation completed');
      // SDK clients dispatch notifications a tick after responses and drop a progress notification handled
      // after its response; on a loaded machine the last one can lose that race even though the gateway
      // wrote it first (the wire order is asserted exactly in everything-stdio.test.ts).
      await waitFor(() => progress.length >= 2, 5_000, 'two progress notifications');
      expect(progress).toEqual([1, 2, 3].slice(0, progress.length));
    });

    it('relays cancellation, and the session keeps working', async () => {
      const controller = new AbortController();
      // Cancelled once the backend is working on it (its first progress notification), not after a guessed delay.
      const pending = c.callTool(
        'trigger-long-running-operation',
        { duration: 5, steps: 5 },
        {
          signal: controller.signal,
          onprogress: () => controller.abort(new Error('user cancelled')),
        },
      );
      await expect(pending).rejects.toThrow();
      const after = await c.callTool('echo', { message: 'still here' });
      expect(after.content[0]?.text).toBe('Echo: still here');
    });

    it('forwards prompts/list, prompts/get and completion/complete', async () => {
      const { prompts } = await c.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'completable-prompt']));
      const prompt = await c.getPrompt('simple-prompt');
      expect(prompt.messages.length).toBeGreaterThan(0);
      const completion = await c.complete('completable-prompt', 'department', 'Eng');
      expect(completion.completion.values).toContain('Engineering');
    });

    it('forwards resources/list, templates/list, read, subscribe (with updates) and unsubscribe', async () => {
      const { resources } = await c.listResources();
      expect(resources.length).toBeGreaterThan(0);
      const { resourceTemplates } = await c.listResourceTemplates();
      expect(resourceTemplates.length).toBeGreaterThan(0);
      const uri = resources[0]!.uri;
      const read = await c.readResource(uri);
      expect(read.contents[0]?.uri).toBe(uri);
      await c.subscribe(uri);
      await c.callTool('toggle-subscriber-updates', {});
      await waitFor(() => c.seen.updated.includes(uri), 8000, 'notifications/resources/updated');
      await c.callTool('toggle-subscriber-updates', {});
      await c.unsubscribe(uri);
    });

    it('forwards logging/setLevel and the logging notifications', async () => {
      await c.setLoggingLevel('debug');
      await c.callTool('toggle-simulated-logging', {});
      await waitFor(() => c.seen.logs.length > 0, 8000, 'notifications/message');
      await c.callTool('toggle-simulated-logging', {});
      expect(await c.ping()).toEqual({});
    });

    it('relays sampling/createMessage to the client and its answer back', async () => {
      const result = await c.callTool('trigger-sampling-request', { prompt: 'say hi', maxTokens: 20 });
      expect(JSON.stringify(result.content)).toContain('sampled by the test client');
      expect(JSON.stringify(c.seen.samplingRequests.at(-1))).toContain('say hi');
    });

    it('relays elicitation/create to the client and its answer back', async () => {
      const result = await c.callTool('trigger-elicitation-request', {});
      expect(JSON.stringify(result.content)).toContain('Ada Lovelace');
      expect(c.seen.elicitations.length).toBeGreaterThan(0);
    });

    it('relays roots/list to the client', async () => {
      const result = await c.callTool('get-roots-list', {});
      expect(result.content[0]?.text).toContain('file:///tmp/gateway-root-a');
      expect(c.seen.rootsRequests).toBeGreaterThan(0);
    });
  });
}
