// Entry of the samples' handler workers (`sample-worker.js` beside the CLI bundle, or this file
// through tsx): serves the stateless samples that `serve-samples` runs off its main thread.
import { validator } from '../host/types';
import { isHandlerWorker, serveHandlersInWorker } from '../host/worker-runtime';
import { inlineSecretScanner } from './cross-boundary-guard';
import { emailRedactor } from './email-redactor';
import { piiValidator } from './pii-validator';
import { promptInjectionHeuristic } from './prompt-injection-heuristic';
import { secretlessRedactor } from './secretless-redactor';
import { toolAllowlist } from './tool-allowlist';
import { SECRET_SCAN } from './offload';

/** cross-boundary-guard's scans (its session state stays on the host's thread): the payload is the text. */
const secretScan = validator<{ secrets?: string[] }>({
  name: SECRET_SCAN,
  phase: 'both',
  handler: (text, ctx) =>
    ctx.phase === 'response'
      ? { valid: true, info: {}, matches: inlineSecretScanner.find(text as string, () => ctx.signal) }
      : { valid: true, info: {}, contained: inlineSecretScanner.contained(text as string, ctx.config.secrets ?? [], () => ctx.signal) },
});

// A bundle runs every module's top level: serve only inside a handler worker.
if (isHandlerWorker()) {
  serveHandlersInWorker([piiValidator(), emailRedactor(), secretlessRedactor(), toolAllowlist(), promptInjectionHeuristic(), secretScan]);
}
