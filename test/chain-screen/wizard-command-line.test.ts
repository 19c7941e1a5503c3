// The new-gateway wizard's Command field ([desktop-client] item 5.1): a command typed with its arguments
// (`node /path/index.js --flag`) is spawned as the program and its arguments, quotes honoured; spawning the
// whole line as one program name failed with ENOENT.
import { describe, expect, it } from 'vitest';
import { backendEntry, emptyEndpoint, fromImported } from '../../src/renderer/src/pages/chain/wizard/entries';

const draft = (command: string, args = '') => ({ ...emptyEndpoint('probe'), command, args });

describe('wizard Command field, typed with arguments', () => {
  it('splits a typed command line into the program and the arguments before the one-per-line ones', () => {
    const entry = backendEntry(draft('node /path/index.js --flag', 'stdio'));
    expect(entry).toMatchObject({ transport: 'stdio', command: 'node', arguments: ['/path/index.js', '--flag', 'stdio'] });
  });

  it('honours quotes, and keeps a lone program (a Windows path with backslashes) as typed', () => {
    expect(backendEntry(draft(`"/opt/My Tools/server" --title 'my server'`))).toMatchObject({
      command: '/opt/My Tools/server',
      arguments: ['--title', 'my server'],
    });
    expect(backendEntry(draft('C:\\tools\\server.exe'))).toMatchObject({ command: 'C:\\tools\\server.exe', arguments: [] });
    // An unterminated quote does not split: spawned as typed, so the error names what was typed.
    expect(backendEntry(draft(`node 'oops`))).toMatchObject({ command: `node 'oops`, arguments: [] });
  });

  it('an imported command whose path holds a space is quoted, so it is spawned whole', () => {
    const d = fromImported({ name: 'x', transport: 'stdio', command: '/Applications/My App/server', args: ['a'] });
    expect(backendEntry(d)).toMatchObject({ command: '/Applications/My App/server', arguments: ['a'] });
  });
});
