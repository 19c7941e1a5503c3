// The export thread's entry (bundled as otel-export.js beside the CLI): runs the ExportPipeline so that
// building spans and serialising OTLP requests use the spare core, not the gateway's event loop.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ExportPipeline } from './export-pipeline';
import { EXPORT_THREAD_KIND, type ExportThreadData, type ToExportThread, type FromExportThread } from './export-protocol';

/** How much nicer than the gateway's thread the export thread runs (Linux nice steps). */
const EXPORT_THREAD_NICENESS = 10;

/**
 * Lowers this thread's scheduling priority, so that when the cores are busy the gateway's event loop (traffic)
 * runs first and export catches up in the gaps; its queues are bounded, so falling behind drops spans (counted),
 * never memory. Linux only: setpriority(PRIO_PROCESS, tid) applies to one thread there, and /proc/thread-self
 * names this thread's tid. Elsewhere, or when refused, the thread keeps the process's priority.
 */
function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return; // never renice the whole process
    setPriority(tid, Math.min(19, getPriority(tid) + EXPORT_THREAD_NICENESS));
  } catch {
    // not Linux, or no /proc: export at the normal priority
  }
}

const port = parentPort;
const data = workerData as ExportThreadData | undefined;
if (port && data?.kind === EXPORT_THREAD_KIND) {
  lowerThisThreadsPriority();
  const send = (m: FromExportThread) => port.postMessage(m);
  const pipeline = new ExportPipeline(data.options, (message) => send({ type: 'error', message }));
  port.on('message', (m: ToExportThread) => {
    if (m.type === 'batch') pipeline.add(m.items);
    else void pipeline.shutdown().then(() => send({ type: 'closed' }));
  });
  send({ type: 'ready' });
}
