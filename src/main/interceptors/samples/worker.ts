// Entry of the samples' handler workers (`sample-worker.js` beside the CLI bundle, or this file
// through tsx): serves the stateless samples that `serve-samples` runs off its main thread.
import { isHandlerWorker, serveHandlersInWorker } from '../host/worker-runtime';
import { emailRedactor } from './email-redactor';
import { piiValidator } from './pii-validator';
import { promptInjectionHeuristic } from './prompt-injection-heuristic';
import { secretlessRedactor } from './secretless-redactor';
import { toolAllowlist } from './tool-allowlist';

// A bundle runs every module's top level: serve only inside a handler worker.
if (isHandlerWorker()) serveHandlersInWorker([piiValidator(), emailRedactor(), secretlessRedactor(), toolAllowlist(), promptInjectionHeuristic()]);
