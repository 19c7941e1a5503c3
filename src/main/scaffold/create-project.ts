// Writes a new interceptor project (interceptor-template.ts) into a folder that must not exist yet or be
// empty, with the conformance fixtures copied in, and depending on this install of interceptor-console
// (`file:`), whose `interceptor-console/host` export is the host SDK the project builds on.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { interceptorProjectFiles } from './interceptor-template';

export const INTERCEPTOR_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

export interface CreatedProject {
  dir: string;
  files: string[];
  /** Where the conformance fixtures came from; undefined when this install has none to copy. */
  fixtures?: string;
}

export function createInterceptorProject(options: { name: string; dir: string; packageRoot: string }): CreatedProject {
  const { name, dir, packageRoot } = options;
  if (!INTERCEPTOR_NAME.test(name)) {
    throw new ScaffoldError(
      `"${name}" is not a usable interceptor name: use lower-case letters, digits and single dashes, starting with a letter (e.g. block-words)`,
    );
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new ScaffoldError(`${dir} exists and is not empty: choose another name or --dir, nothing was written`);
  }
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const dev = pkg.devDependencies ?? {};
  const caret = (v: string | undefined, fallback: string) => (v ? `^${v.replace(/^[\^~]/, '')}` : fallback);
  const files = interceptorProjectFiles({
    name,
    consoleDependency: `file:${packageRoot}`,
    versions: { tsx: caret(dev.tsx, '^4.0.0'), typescript: caret(dev.typescript, '^5.9.0'), nodeTypes: caret(dev['@types/node'], '^20.0.0') },
  });
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' });
  }
  const fixtures = join(packageRoot, 'test', 'fixtures', 'conformance');
  if (!existsSync(fixtures)) return { dir, files: Object.keys(files) };
  cpSync(fixtures, join(dir, 'conformance'), { recursive: true });
  return { dir, files: [...Object.keys(files), 'conformance/'], fixtures };
}
