// Follows a headless gateway's config file: when the Chain screen (or anyone) saves it, the running
// gateway hot-reloads it (sessions kept, in-flight requests finish on the old chain). An invalid file is
// reported and ignored: the gateway keeps running on the last good config. A changed backend or listener
// of a stdio gateway cannot be applied without dropping its client, so that is reported, not done.
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { formatConfigErrors, parseGatewayConfigText, type GatewayConfig } from '../../shared/config';
import type { Gateway } from '../gateway';

const SETTLE_MS = 150;

export function watchGatewayConfig(
  path: string,
  gateway: Gateway,
  initialText: string,
  log: (line: string) => void,
  /** What the command line overrides (e.g. `--listen stdio`), applied to every reloaded config too. */
  adjust: (config: GatewayConfig) => GatewayConfig = (c) => c,
): () => void {
  let last = initialText;
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  const file = basename(path);

  const apply = async () => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // mid-rename or deleted: the next event tells
    }
    if (text === last) return;
    last = text;
    const parsed = parseGatewayConfigText(text);
    if (!parsed.ok) {
      log(`config ${path} changed but is invalid; still running the previous config:\n${formatConfigErrors(parsed.errors)}`);
      return;
    }
    const next = adjust(parsed.config);
    const current = gateway.config;
    const structural =
      JSON.stringify(next.backend) !== JSON.stringify(current.backend) ||
      JSON.stringify(next.listen) !== JSON.stringify(current.listen) ||
      next.maxMessageBytes !== current.maxMessageBytes;
    if (structural && current.listen.transport === 'stdio') {
      log(`config ${path} changed its backend, listener or message cap: restart the client to apply that (the chain part is not applied either)`);
      return;
    }
    try {
      await gateway.reload(next);
    } catch (err) {
      log(`reloading ${path} failed: ${(err as Error).message}`);
    }
  };

  // Watch the folder, not the file: saves replace the file (write to a temp file, rename), which ends a
  // watch on the old inode.
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_event, name) => {
      if (name !== null && name !== file) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        chain = chain.then(apply, apply);
      }, SETTLE_MS);
    });
    watcher.on('error', (err) => log(`stopped following ${path}: ${err.message}`));
  } catch (err) {
    log(`cannot follow ${path} for changes: ${(err as Error).message}`);
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
