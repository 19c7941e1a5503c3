// How the Messages screen writes a message's hop, kind and size.
import type { MessageRow } from '../../../../shared/api/models-messages';

export const KIND_LABEL: Record<MessageRow['kind'], string> = {
  request: 'request',
  response: 'response',
  error: 'error',
  notification: 'notification',
  'connect-error': 'connect failed',
};

/** Who sent it to whom, seen from the gateway: "client → gateway", "gateway → samples". */
export function hop(r: Pick<MessageRow, 'side' | 'direction' | 'peer'>): string {
  const peer = r.side === 'interceptor' ? (r.peer ?? 'interceptor') : r.side;
  return r.direction === 'in' ? `${peer} → gateway` : `gateway → ${peer}`;
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The recorded text, indented when it is whole JSON (a cut one is shown as it is). */
export function pretty(body: string, truncated: boolean): string {
  if (truncated) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
