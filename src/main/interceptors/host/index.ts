// Host SDK: author interceptors and serve them over MCP (stdio or Streamable HTTP).
export { InterceptorHost, type InterceptorHostOptions } from './host';
export { serveHostOverStdio, type StdioServing } from './serve-stdio';
export { serveHostOverHttp, type HttpServeOptions, type HttpServing } from './serve-http';
export { WorkerHandlerPool, type HandlerOffload, type HandlerWorkerEntry, type WorkerPoolOptions } from './worker-pool';
export { serveHandlersInWorker, isHandlerWorker } from './worker-runtime';
export { resolveWorkerEntry } from '../../processes/worker-entry';
export {
  validator,
  mutator,
  sink,
  type HandlerContext,
  type InterceptorRegistration,
  type MutationOutcome,
  type MutatorRegistration,
  type PhaseOption,
  type SinkOutcome,
  type SinkRegistration,
  type ValidationOutcome,
  type ValidatorRegistration,
} from './types';
