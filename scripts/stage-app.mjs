#!/usr/bin/env node
// Stages the app to package into release/app (electron-builder's "two package.json" layout): the built
// out/ folder, resources/, and a package.json listing only what the app needs at run time. electron-builder
// installs those dependencies there compiled for Electron's ABI (better-sqlite3 is native), so the
// checkout's node_modules keeps its Node-ABI build and `npm test` never sees an Electron binary.
// Run after `npm run build`.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stage = join(root, 'release', 'app');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

for (const needed of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/index.js']) {
  if (!existsSync(join(root, needed))) {
    console.error(`${needed} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
// Source maps stay out of the installers.
cpSync(join(root, 'out'), join(stage, 'out'), { recursive: true, filter: (src) => !src.endsWith('.map') && !src.endsWith('.lock') });
cpSync(join(root, 'resources'), join(stage, 'resources'), { recursive: true });

const app = {
  name: pkg.name,
  productName: 'Interceptor Console',
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  author: { name: 'Interceptor Console contributors', email: 'interceptor-console@users.noreply.github.com' },
  homepage: 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2624',
  type: 'module',
  main: 'out/main/index.js',
  dependencies: {
    ...pkg.dependencies,
    // The demo gateway's backend (product.md §2): a dev dependency of the checkout, a runtime one of the app.
    '@modelcontextprotocol/server-everything': pkg.devDependencies['@modelcontextprotocol/server-everything'],
  },
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
console.log(`staged ${stage} (${Object.keys(app.dependencies).length} runtime dependencies)`);
