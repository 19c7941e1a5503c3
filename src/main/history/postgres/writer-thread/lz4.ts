import type pg from 'pg';

/**
 * The record's JSON (~3 KB) is compressed by the server as it is stored: lz4 costs it ~35 µs less CPU per
 * execution than the default pglz, for ~7% more space (bench/postgres.ts). A session setting, so no schema
 * change; reads decompress either. Servers before 14, or built without lz4, refuse it: kept pglz. Set on
 * each connection's first use by a recorder.
 */
export function compressRecordsWithLz4(pool: pg.Pool): void {
  const set = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (set.has(client)) return;
    set.add(client);
    client.query('SET default_toast_compression = lz4').catch(() => {});
  });
}
