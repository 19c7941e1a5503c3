// Entry of a PostgreSQL recorder's writer thread. Loaded as a worker by WorkerPgSender (batch-sender.ts):
// from source through tsx, or as `pg-writer.js` beside a bundle. It keeps its own pool and writes the
// batches it is sent, one transaction each (batch-insert.ts), so that the driver's work (binding every
// value, the socket writes that wake the server, parsing the answers) is not done on the thread that
// forwards the gateway's traffic. Imported on the main thread (a bundle runs every module's top level),
// it does nothing.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { IdCache, writeBatch } from '../batch-insert';
import { createPool } from '../connection';
import { compressRecordsWithLz4 } from './lz4';
import { PG_WRITER_THREAD_KIND, toWireError, type PgWriterRequest, type PgWriterResponse, type PgWriterThreadData } from './protocol';

function serve(data: PgWriterThreadData): void {
  const port = parentPort!;
  let pool;
  try {
    // The main thread has connected (and migrated the schema) just before starting this thread.
    pool = createPool(data.url, { max: data.max });
  } catch (err) {
    port.postMessage({ type: 'failed', error: toWireError(err).message } satisfies PgWriterResponse);
    return;
  }
  compressRecordsWithLz4(pool);
  const cache = new IdCache();
  port.on('message', (req: PgWriterRequest) => {
    if (req.op === 'close') {
      void pool
        .end()
        .catch(() => {})
        .then(() => {
          port.postMessage({ type: 'done', id: req.id } satisfies PgWriterResponse);
          port.close();
        });
      return;
    }
    writeBatch(pool, req.items, data.host, cache).then(
      (result) => port.postMessage({ type: 'done', id: req.id, result } satisfies PgWriterResponse),
      (err: unknown) => port.postMessage({ type: 'error', id: req.id, error: toWireError(err) } satisfies PgWriterResponse),
    );
  });
  port.postMessage({ type: 'ready' } satisfies PgWriterResponse);
}

const data = workerData as PgWriterThreadData | undefined;
if (!isMainThread && data?.kind === PG_WRITER_THREAD_KIND) serve(data);
