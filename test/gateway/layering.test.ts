// The headless gateway (src/main/gateway) is core: the CLI runs it without the app's services, so nothing
// under it may import them (nor Electron). Read from the sources, import by import, so a new file is checked too.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const gatewayDir = join(root, 'src', 'main', 'gateway');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((m) => m[1]!);
}

const FORBIDDEN = ['src/main/services', 'src/main/electron', 'src/main/api', 'src/main/cli', 'src/main/web'];

describe.each([
  ['gateway', gatewayDir],
  ['interceptors', join(root, 'src', 'main', 'interceptors')],
])('src/main/%s layering (docs/ARCHITECTURE.md)', (_name, dir) => {
  it('imports neither the app services, the API, the CLI, web mode nor Electron', () => {
    const files = sources(dir);
    expect(files.length).toBeGreaterThan(5);
    const offending: string[] = [];
    for (const file of files) {
      for (const spec of imports(file)) {
        const target = spec.startsWith('.') ? relative(root, resolve(file, '..', spec)) : spec;
        if (target === 'electron' || FORBIDDEN.some((f) => target.startsWith(f))) offending.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
