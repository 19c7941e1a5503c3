// The gateways the history has seen, with the config each last ran with ("which chain produced
// this execution?"). Gateways that only appear in imported or older files have no config.
import type Database from 'better-sqlite3';
import { cachedStatement } from './statement-cache';
import type { RecordedGateway } from '../../model/aggregates';

export type { RecordedGateway };

export function listGateways(db: Database.Database): RecordedGateway[] {
  const rows = cachedStatement(db, 'SELECT name, config_json, created_at, updated_at FROM gateways ORDER BY name').all() as {
    name: string;
    config_json: string | null;
    created_at: string;
    updated_at: string;
  }[];
  return rows.map((r) => ({
    name: r.name,
    config: r.config_json === null ? null : (JSON.parse(r.config_json) as unknown),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
