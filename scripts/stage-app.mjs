#!/usr/bin/env node
// Stages the app to package as a standalone project OUTSIDE the checkout (default: <tmp>/interceptor-console-app):
// the built out/ folder, resources/, electron-builder.yml, a package.json listing only what the app needs
// at run time, and those dependencies installed with their install scripts skipped. electron-builder then
// rebuilds the native ones there for Electron's ABI (better-sqlite3). Staging outside the checkout matters:
// @electron/rebuild resolves modules upwards, and a stage inside the repo would let it rebuild the
// checkout's own better-sqlite3, which `npm test` and the CLI need in Node's ABI.
// Usage (after `npm run build`): node scripts/stage-app.mjs [stage-dir]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stage = resolve(process.argv[2] ?? join(tmpdir(), 'interceptor-console-app'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

if (!relative(root, stage).startsWith('..')) {
  console.error(`The stage ${stage} is inside the checkout; pick a folder outside it (see the comment at the top of this script).`);
  process.exit(2);
}
for (const needed of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/index.js']) {
  if (!existsSync(join(root, needed))) {
    console.error(`${needed} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
// Source maps and build locks stay out of the installers.
cpSync(join(root, 'out'), join(stage, 'out'), { recursive: true, filter: (src) => !src.endsWith('.map') && !src.endsWith('.lock') });
cpSync(join(root, 'resources'), join(stage, 'resources'), { recursive: true });
cpSync(join(root, 'electron-builder.yml'), join(stage, 'electron-builder.yml'));

const app = {
  name: pkg.name,
  productName: 'Interceptor Console',
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  author: { name: 'Interceptor Console contributors', email: 'interceptor-console@users.noreply.github.com' },
  homepage: 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2624',
  // electron-builder infers where to publish from this (the stage is outside the git checkout).
  ...(process.env.GITHUB_REPOSITORY ? { repository: `https://github.com/${process.env.GITHUB_REPOSITORY}` } : {}),
  type: 'module',
  main: 'out/main/index.js',
  dependencies: {
    ...pkg.dependencies,
    // The demo gateway's backend (product.md §2): a dev dependency of the checkout, a runtime one of the app.
    '@modelcontextprotocol/server-everything': pkg.devDependencies['@modelcontextprotocol/server-everything'],
  },
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);

// Scripts skipped: better-sqlite3 would compile for Node here; electron-builder builds it for Electron.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
  cwd: stage,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
console.log(`staged ${stage} (${Object.keys(app.dependencies).length} runtime dependencies)`);
