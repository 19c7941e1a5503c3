// The small shell-like tokenizer behind `--server-command`.
import { describe, expect, it } from 'vitest';
import { quoteCommandLine, ShellSyntaxError, splitCommandLine } from '../../src/shared/shell/shell-words';

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(splitCommandLine('node  server.js --port 3')).toEqual(['node', 'server.js', '--port', '3']);
    expect(splitCommandLine(`"/opt/my app/bin" 'a b' c\\ d "x\\"y" 'it''s'`)).toEqual(['/opt/my app/bin', 'a b', 'c d', 'x"y', 'its']);
    expect(splitCommandLine(`node -e "console.log('hi')"`)).toEqual(['node', '-e', "console.log('hi')"]);
    expect(splitCommandLine(`a "" b`)).toEqual(['a', '', 'b']);
    expect(splitCommandLine('echo $HOME *')).toEqual(['echo', '$HOME', '*']); // no expansion
    expect(splitCommandLine('   ')).toEqual([]);
  });

  it('refuses unterminated quotes and a trailing backslash', () => {
    expect(() => splitCommandLine(`node "oops`)).toThrow(ShellSyntaxError);
    expect(() => splitCommandLine(`node 'oops`)).toThrow(/single quote/);
    expect(() => splitCommandLine('node \\')).toThrow(/backslash/);
  });
});

describe('quoteCommandLine', () => {
  it('quotes only what needs it, and splitCommandLine gives the words back', () => {
    const words = ['node', '-e', "console.log('hi there')", '', '/opt/my app/x', '--flag=a,b', '$HOME'];
    const line = quoteCommandLine(words);
    expect(line.startsWith('node -e ')).toBe(true);
    expect(line).toContain('--flag=a,b');
    expect(splitCommandLine(line)).toEqual(words);
  });
});
