// Maps whatever an invoke can throw onto InvokeError kinds the chain engine routes by failOpen:
//   -32000, or -32603 with data.reason "timeout" → timeout (A10); other -32603 → crash;
//   other JSON-RPC errors → rpc; closed/failed transport → transport; our signal → cancelled;
//   the SDK's local deadline → timeout.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ErrorCode } from '../../../shared/protocol/constants';
import { InvokeError } from '../server-handle';

export function toInvokeError(err: unknown, ctx: { server: string; interceptor: string; timeoutMs?: number; signal?: AbortSignal }): InvokeError {
  if (err instanceof InvokeError) return err;
  const where = `interceptor '${ctx.interceptor}' on server '${ctx.server}'`;
  if (ProtocolError.isInstance(err)) {
    const data = err.data as { reason?: unknown } | undefined;
    if (err.code === ErrorCode.Timeout || (err.code === ErrorCode.InternalError && data?.reason === 'timeout')) {
      return new InvokeError('timeout', `${where} timed out on the host: ${err.message}`, err.code, err.data);
    }
    if (err.code === ErrorCode.InternalError) {
      return new InvokeError('crash', `${where} failed: ${err.message}`, err.code, err.data);
    }
    return new InvokeError('rpc', `${where} was refused (JSON-RPC ${err.code}): ${err.message}`, err.code, err.data);
  }
  if (SdkError.isInstance(err)) {
    if (ctx.signal?.aborted) return new InvokeError('cancelled', `invocation of ${where} was cancelled`);
    if (err.code === SdkErrorCode.RequestTimeout) {
      const ms = ctx.timeoutMs !== undefined ? ` after ${ctx.timeoutMs}ms` : '';
      return new InvokeError('timeout', `${where} did not answer${ms} (invoker-side deadline)`, undefined, {
        timeoutMs: ctx.timeoutMs,
      });
    }
    return new InvokeError('transport', `connection to server '${ctx.server}' failed during ${where}: ${err.message}`);
  }
  if (ctx.signal?.aborted) return new InvokeError('cancelled', `invocation of ${where} was cancelled`);
  const message = err instanceof Error ? err.message : String(err);
  return new InvokeError('transport', `connection to server '${ctx.server}' failed during ${where}: ${message}`);
}
