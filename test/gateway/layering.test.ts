// The headless gateway (src/main/gateway) is core: the CLI runs it without the app's services, so nothing
// under it may import them (nor Electron). The history (src/main/history) is one way in: code outside it
// reaches an engine only through the engine's entry (history/sqlite/index.ts, history/postgres/index.ts),
// the engine-neutral model imports neither engine, and neither engine imports the other. Read from the
// sources, import by import, so a new file is checked too.
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

const historyDir = join(root, 'src', 'main', 'history');
const ENGINES = ['sqlite', 'postgres'] as const;
const engineOf = (path: string) => ENGINES.find((e) => path === `src/main/history/${e}` || path.startsWith(`src/main/history/${e}/`));
/** The one file of an engine that code outside history/ may import (a folder import resolves to it). */
const isEntry = (path: string, engine: string) =>
  [`src/main/history/${engine}`, `src/main/history/${engine}/index`, `src/main/history/${engine}/index.ts`].includes(path);

describe('src/main/history layering (docs/ARCHITECTURE.md)', () => {
  const importsOf = (file: string) =>
    imports(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => ({
        spec,
        target: relative(root, resolve(file, '..', spec))
          .split('\\')
          .join('/'),
      }));

  it('outside history/, an engine is imported only through its index entry', () => {
    const offending: string[] = [];
    for (const file of sources(join(root, 'src')).filter((f) => !f.startsWith(historyDir))) {
      for (const { spec, target } of importsOf(file)) {
        const engine = engineOf(target);
        if (engine && !isEntry(target, engine)) offending.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('history/model imports neither engine, and neither engine imports the other', () => {
    const offending: string[] = [];
    for (const file of sources(historyDir)) {
      const own = engineOf(relative(root, file).split('\\').join('/'));
      for (const { spec, target } of importsOf(file)) {
        const engine = engineOf(target);
        if (engine && engine !== own) offending.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(sources(join(historyDir, 'model')).length).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
