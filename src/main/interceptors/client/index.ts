// Invoker: reach interceptor servers over stdio or Streamable HTTP (implements InterceptorServerHandle).
export { InterceptorServerClient, type InterceptorServerClientOptions } from './client';
export {
  ConnectionConfigSchema,
  describeConnection,
  type ConnectionConfig,
  type CustomConnection,
  type HttpConnection,
  type StdioConnection,
} from './connection';
export { checkInvokeResult, checkDescriptors } from './result-check';
export { toInvokeError } from './errors';
export { backoffDelay, type ConnectionState, type ConnectionStatus, type BackoffOptions } from './status';
