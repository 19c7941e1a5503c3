// Serves the built renderer (out/renderer). Nothing served here is secret: the page gets its token from the
// URL fragment (never sent to any server), so these files need no token. index.html gets this response's
// CSP nonce as a meta tag, for the one component that writes <style> elements (CodeMirror).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  status: number;
  type: string;
  body: Buffer | string;
}

export function rendererBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

export function readStatic(dir: string, pathname: string, styleNonce: string): StaticFile {
  if (!rendererBuilt(dir)) {
    return {
      status: 503,
      type: TYPES['.html']!,
      body: '<!doctype html><title>Not built</title><p>The console is not built yet: run <code>npm run build</code>, then start web mode again.</p>',
    };
  }
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return { status: 400, type: TYPES['.txt']!, body: 'Bad path' };
  }
  if (rel === '/' || rel === '' || rel === '/index.html') return indexHtml(dir, styleNonce);
  const full = normalize(join(dir, rel));
  if (!full.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return { status: 404, type: TYPES['.txt']!, body: 'Not found' };
  if (!existsSync(full) || !statSync(full).isFile()) {
    // Client-side routes fall back to the page; missing assets are a plain 404.
    return extname(full) ? { status: 404, type: TYPES['.txt']!, body: 'Not found' } : indexHtml(dir, styleNonce);
  }
  return { status: 200, type: TYPES[extname(full)] ?? 'application/octet-stream', body: readFileSync(full) };
}

function indexHtml(dir: string, styleNonce: string): StaticFile {
  const html = readFileSync(join(dir, 'index.html'), 'utf8').replace('<head>', `<head>\n    <meta name="csp-nonce" content="${styleNonce}" />`);
  return { status: 200, type: TYPES['.html']!, body: html };
}
