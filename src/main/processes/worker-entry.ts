// Where a worker thread's entry is: a bundled file beside the running bundle (`out/cli/<name>.js`),
// or in a source checkout (tsx, vitest) the TypeScript module loaded through tsx's CommonJS hooks
// (Node 20 does not apply `--import` loader hooks to worker threads). Used by every thread we start: the
// host's handler workers, the history writer threads, the OpenTelemetry export thread.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A file to run, or (source checkouts under tsx/vitest) a CommonJS bootstrap to evaluate. */
export interface WorkerEntry {
  script: URL | string;
  eval: boolean;
}

/**
 * @param here `import.meta.url` of the module asking
 * @param source the entry's TypeScript source, relative to `here`
 * @param bundled the entry's file name in the bundle
 */
export function resolveWorkerEntry(here: string, source: string, bundled: string): WorkerEntry | undefined {
  let url: URL;
  try {
    url = new URL(here);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'file:') return undefined;
  if (url.pathname.endsWith('.ts')) {
    const file = fileURLToPath(new URL(source, url));
    if (!existsSync(file)) return undefined;
    let api: string;
    try {
      api = createRequire(url).resolve('tsx/cjs/api');
    } catch {
      return undefined;
    }
    return { script: `require(${JSON.stringify(api)}).register(); require(${JSON.stringify(file)});`, eval: true };
  }
  // The asking module may sit in the entry file or in a shared chunk beside it or one folder down.
  for (const candidate of [`./${bundled}`, `../${bundled}`]) {
    const file = new URL(candidate, url);
    if (existsSync(fileURLToPath(file))) return { script: file, eval: false };
  }
  return undefined;
}
