// Importing servers from Claude Desktop, Cursor and VS Code config files.
import { describe, expect, it } from 'vitest';
import { ClientConfigError, parseClientConfig } from '../../src/shared/client-config/parse';

describe('parseClientConfig', () => {
  it('reads a Claude Desktop file', () => {
    const r = parseClientConfig(
      JSON.stringify({
        mcpServers: {
          filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
        },
      }),
    );
    expect(r).toEqual({
      format: 'mcpServers',
      servers: [
        { name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
      ],
      skipped: [],
    });
  });

  it('reads a Cursor file with remote servers and reports unusable entries', () => {
    const r = parseClientConfig(
      JSON.stringify({
        mcpServers: {
          remote: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
          legacy: { url: 'https://example.test/sse' },
          broken: { args: ['x'] },
          off: { command: 'x', disabled: true },
        },
      }),
    );
    expect(r.servers).toEqual([
      { name: 'remote', transport: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
      { name: 'legacy', transport: 'sse', url: 'https://example.test/sse' },
    ]);
    expect(r.skipped.map((s) => s.name)).toEqual(['broken', 'off']);
    expect(r.skipped[0]!.reason).toMatch(/command.*url/);
  });

  it('reads VS Code mcp.json with comments and trailing commas', () => {
    const text = `{
      // workspace servers
      "inputs": [],
      "servers": {
        "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", },
        /* a local one */
        "time": { "type": "stdio", "command": "uvx", "args": ["mcp-server-time", "--tz=http://x//y"] },
      },
    }`;
    const r = parseClientConfig(text);
    expect(r.format).toBe('vscode');
    expect(r.servers).toEqual([
      { name: 'github', transport: 'http', url: 'https://api.githubcopilot.com/mcp/' },
      { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time', '--tz=http://x//y'] },
    ]);
  });

  it('reads VS Code settings.json under "mcp"', () => {
    const r = parseClientConfig('{"mcp": {"servers": {"a": {"command": "a"}}}}');
    expect(r.servers).toEqual([{ name: 'a', transport: 'stdio', command: 'a', args: [] }]);
  });

  it.each([
    ['not JSON', 'not json {', /not valid JSON/],
    ['an array', '[]', /JSON object/],
    ['no servers', '{"other": 1}', /No MCP servers found/],
  ])('rejects %s with a clear error', (_what, text, message) => {
    expect(() => parseClientConfig(text)).toThrow(ClientConfigError);
    expect(() => parseClientConfig(text)).toThrow(message);
  });
});
