// Every Playground payload template is a valid payload for its event and phase: request templates
// against the MCP SDK's params schema for the method, response templates against its result schema
// (llm/completion, which the SDK does not define, against the SDK-type shape of spec §3.8); the
// shapes live in src/shared/templates/payload-shapes.ts, which the Playground also warns with.
import { describe, expect, it } from 'vitest';
import { KNOWN_EVENTS } from '../../src/shared/protocol/constants';
import { allPayloadTemplates, payloadTemplate, TEMPLATE_EVENTS } from '../../src/shared/templates/payloads';
import { payloadShape } from '../../src/shared/templates/payload-shapes';

function issues(event: string, phase: 'request' | 'response', value: unknown): string[] {
  const shape = payloadShape(event, phase);
  if (!shape) throw new Error(`no shape for ${event} ${phase}`);
  return shape.check(value);
}

describe('payload templates', () => {
  it('cover every known event in both phases', () => {
    expect([...TEMPLATE_EVENTS].sort()).toEqual([...KNOWN_EVENTS].sort());
    expect(allPayloadTemplates()).toHaveLength(KNOWN_EVENTS.length * 2);
  });

  for (const t of allPayloadTemplates()) {
    it(`${t.event} ${t.phase} is valid against ${payloadShape(t.event, t.phase)?.name}`, () => {
      expect(issues(t.event, t.phase, t.payload)).toEqual([]);
    });
  }

  it('the schemas are strict enough to reject a broken template', () => {
    expect(issues('tools/call', 'request', { arguments: {} })[0]).toContain('name');
    expect(issues('tools/call', 'response', { content: [{ type: 'text' }] }).length).toBeGreaterThan(0);
    expect(issues('llm/completion', 'response', { message: { role: 'assistant' } }).length).toBeGreaterThan(0);
    expect(issues('roots/list', 'request', { cursor: 'x' }).length).toBeGreaterThan(0);
    expect(payloadShape('custom/thing', 'request')).toBeUndefined();
  });

  it('hands out copies, and a neutral payload for events without a template', () => {
    const a = payloadTemplate('tools/call', 'request');
    (a.payload as { name: string }).name = 'changed';
    expect((payloadTemplate('tools/call', 'request').payload as { name: string }).name).toBe('echo');
    expect(payloadTemplate('custom/thing', 'request').payload).toEqual({});
  });
});
