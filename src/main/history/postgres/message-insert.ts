// Writes the captured messages of a batch (store/sql/encode-message.ts: already redacted, cut at 64 Ki
// characters and sized) in the batch's transaction, as one statement: the rows travel as one JSON array
// expanded by json_to_recordset, in the order they were recorded (WITH ORDINALITY), so identity keys
// follow recording order. Idempotent by message uuid: a batch retried after a lost connection, or a crash
// journal replayed by the next gateway, writes each message once.
import type pg from 'pg';
import type { EncodedMessage } from '../model/encode/encoded';
import { indexedText, nulFreeJson } from './column-values';

/** Inserts the messages (the gateways are interned already); returns how many were new. */
export async function insertMessages(
  client: pg.PoolClient,
  messages: readonly EncodedMessage[],
  host: string | null,
  gatewayId: (name: string) => number,
): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = messages.map((m) => ({
    u: m.uuid,
    g: gatewayId(m.gateway),
    h: host,
    sk: indexedText(m.sessionKey),
    at: m.atMs,
    sd: m.side,
    dr: m.direction,
    pe: m.peer,
    k: m.messageKind,
    me: indexedText(m.method),
    j: m.jsonrpcId,
    sz: m.size,
    ex: m.executionUuid,
    tr: m.truncated === 1,
    b: m.body,
  }));
  const r = await client.query({
    name: 'ic_messages_insert',
    text: `INSERT INTO messages (uuid, gateway_id, host, session_key, at_ms, side, direction, peer, kind, method, jsonrpc_id, size, execution_uuid, truncated, body)
           SELECT u, g, h, sk, at, sd, dr, pe, k, me, NULLIF(j, 'null'::jsonb), sz, ex, tr, b
           FROM ROWS FROM (json_to_recordset($1::json) AS (u text, g int, h text, sk text, at bigint, sd text, dr text, pe text, k text, me text,
                                                           j jsonb, sz int, ex text, tr bool, b text))
                WITH ORDINALITY AS x(u, g, h, sk, at, sd, dr, pe, k, me, j, sz, ex, tr, b, n)
           ORDER BY n
           ON CONFLICT (uuid) DO NOTHING`,
    values: [nulFreeJson(rows)],
  });
  return r.rowCount ?? 0;
}
