// No spec section codes in what the console shows ([desktop-client] item 5.4): tooltips and notes said
// "(A8)", "(A17)", "A8: if discovery fails…", which mean nothing to a user. Comments may keep them; text a
// user reads (JSX text, titles, labels, strings) may not.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const rendererSrc = join(import.meta.dirname, '../../src/renderer/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A line's code without its comments (`// …`, `/* … *\/`, `{/* … *\/}`, and lines inside a block comment). */
function withoutComments(line: string): string {
  const t = line.trim();
  if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*') || t.startsWith('{/*')) return '';
  return line.replace(/\{?\/\*.*?\*\/\}?/g, '').replace(/(^|\s)\/\/ .*$/, '');
}

describe('user-facing renderer text', () => {
  it('carries no spec section codes such as (A8) or "A17:"', () => {
    const found: string[] = [];
    for (const file of sources(rendererSrc)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\(A\d{1,2}\)|\bA\d{1,2}:\s/.test(withoutComments(line))) found.push(`${relative(rendererSrc, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
