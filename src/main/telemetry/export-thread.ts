// The export thread's entry (bundled as otel-export.js beside the CLI): runs the ExportPipeline so that
// building spans and serialising OTLP requests use the spare core, not the gateway's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { ExportPipeline } from './export-pipeline';
import { EXPORT_THREAD_KIND, type ExportThreadData, type ToExportThread, type FromExportThread } from './export-protocol';

const port = parentPort;
const data = workerData as ExportThreadData | undefined;
if (port && data?.kind === EXPORT_THREAD_KIND) {
  const send = (m: FromExportThread) => port.postMessage(m);
  const pipeline = new ExportPipeline(data.options, (message) => send({ type: 'error', message }));
  port.on('message', (m: ToExportThread) => {
    if (m.type === 'batch') pipeline.add(m.items);
    else void pipeline.shutdown().then(() => send({ type: 'closed' }));
  });
  send({ type: 'ready' });
}
