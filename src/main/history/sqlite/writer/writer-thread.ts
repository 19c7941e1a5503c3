// Entry of the store's writer thread. Loaded as a worker by WorkerBatchWriter: from source through
// tsx, or as `store-writer.js` next to a bundle. It opens its own connection to the history file
// and writes the batches it is sent, one transaction each. Imported on the main thread (a bundle
// runs every module's top level), it does nothing. Started with a CheckpointerData, the same entry is the
// writer's checkpointer thread (checkpointer.ts): no entry file of its own to bundle.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ExecutionInserter } from '../sql/inserter';
import { openStore, type Store } from '../open/open-store';
import { applyBatch } from './apply-batch';
import { describeError } from '../../model/recording/retry-policy';
import { lowerThisThreadPriority } from './thread-priority';
import type { WriterRequest, WriterResponse, WriterThreadData } from './writer-protocol';
import { WRITER_THREAD_KIND } from './writer-protocol';
import { CHECKPOINTER_KIND, CheckpointerLink, serveCheckpointer, type CheckpointerData } from './checkpointer';
import { writerThreadEntry } from './worker-batch-writer';

function serve(data: WriterThreadData): void {
  const port = parentPort!;
  let store: Store;
  try {
    // The main thread opened (and checked) the file just before starting this thread.
    store = openStore(data.path, { busyTimeoutMs: data.busyTimeoutMs, create: false, checkIntegrity: false });
  } catch (err) {
    port.postMessage({ type: 'failed', error: describeError(err) } satisfies WriterResponse);
    return;
  }
  const inserter = new ExecutionInserter(store.db);
  const checkpoints = new CheckpointerLink(writerThreadEntry(), data.path, store.db, data.checkpointerAfterItems);
  lowerThisThreadPriority();
  port.on('message', (req: WriterRequest) => {
    let res: WriterResponse;
    try {
      if (req.op === 'write') {
        const result = applyBatch(store.db, inserter, req.items);
        if (result.ok) checkpoints.committed(req.items.length);
        res = { type: 'done', id: req.id, result };
      } else if (req.op === 'exec') {
        store.db.exec(req.sql);
        res = { type: 'done', id: req.id };
      } else {
        // The checkpointer ends first: the last connection to close checkpoints and removes the WAL.
        void checkpoints.close().then(() => {
          try {
            store.db.pragma('optimize');
          } catch {
            // A planner hint only.
          }
          let closed: WriterResponse = { type: 'done', id: req.id };
          try {
            store.close();
          } catch (err) {
            closed = { type: 'error', id: req.id, error: describeError(err) }; // as before the checkpointer: answered, not thrown
          }
          port.postMessage(closed);
          port.close();
        });
        return;
      }
    } catch (err) {
      res = { type: 'error', id: req.id, error: describeError(err) };
    }
    port.postMessage(res);
  });
  port.postMessage({ type: 'ready' } satisfies WriterResponse);
}

const data = workerData as WriterThreadData | CheckpointerData | undefined;
if (!isMainThread && data?.kind === WRITER_THREAD_KIND) serve(data);
if (!isMainThread && data?.kind === CHECKPOINTER_KIND) serveCheckpointer(data);
