// Shapes of the Chain screen (the visual chain editor) and the new-gateway wizard. Descriptors stay loose: the
// protocol schemas own them; the Chain screen only relies on the fields it draws.
import { z } from 'zod';
import { DescriptorSchema, GatewayInfoSchema } from './models';

const Skipped = z.array(z.object({ name: z.string().optional(), reason: z.string() }));

/** One interceptor server of a (draft) config with what it discovered, or why it could not. */
export const ServerDiscoverySchema = z.object({
  name: z.string(),
  transport: z.string(),
  /** Command line or URL. */
  target: z.string(),
  failOpen: z.boolean(),
  /** Principals whose dynamic servers include it; absent for static servers. */
  principals: z.array(z.string()).optional(),
  ok: z.boolean(),
  /** The connection or discovery error, shown in place in the palette. */
  error: z.string().optional(),
  interceptors: z.array(DescriptorSchema),
  skipped: Skipped,
  /** Interceptors whose config (or the lack of one) fails their configSchema under the draft's overrides. */
  configErrors: z.array(z.object({ interceptor: z.string(), message: z.string() })).optional(),
  durationMs: z.number(),
});
export type ServerDiscovery = z.infer<typeof ServerDiscoverySchema>;

export const ChainDiscoverySchema = z.object({ servers: z.array(ServerDiscoverySchema) });
export type ChainDiscovery = z.infer<typeof ChainDiscoverySchema>;

/** An override problem found by the chain engine's validateOverrides (hook widening is an error). */
export const OverrideIssueSchema = z.object({
  key: z.string(),
  /** Inside the override, e.g. `hooks[0].events[1]`. */
  path: z.string(),
  /** The full config path, e.g. `overrides["samples/pii-validator"].hooks[0].events[1]`. */
  configPath: z.string(),
  kind: z.enum(['invalid', 'widening', 'unknown-interceptor']),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
export type OverrideIssue = z.infer<typeof OverrideIssueSchema>;

export const TestServerResultSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  interceptors: z.array(DescriptorSchema),
  skipped: Skipped,
  durationMs: z.number(),
});
export type TestServerResult = z.infer<typeof TestServerResultSchema>;

export const TestBackendResultSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
  protocolVersion: z.string().optional(),
  /** Tool names (first 50) and the total count, when the backend has tools. */
  tools: z.array(z.string()).optional(),
  toolCount: z.number().int().optional(),
  durationMs: z.number(),
  /** A stdio backend: the exact command and arguments spawned (after localisation), to show and re-run. */
  command: z.array(z.string()).optional(),
  /** A failed test: the end of what the process wrote to stderr (the last 8 KiB, whole lines). */
  stderr: z.string().optional(),
});
export type TestBackendResult = z.infer<typeof TestBackendResultSchema>;

export const ReloadRecordSchema = z.object({
  at: z.string(),
  /** False: hot (sessions kept). True: a backend or listener change forced a restart. */
  restarted: z.boolean(),
});
export type ReloadRecord = z.infer<typeof ReloadRecordSchema>;

export const ChainDocumentSchema = z.object({
  /** The config file exactly as on disk. */
  text: z.string(),
  configPath: z.string(),
  info: GatewayInfoSchema,
});

export const ChainSaveResultSchema = z.object({
  /** What was written, byte for byte (the JSON tab shows exactly this afterwards). */
  text: z.string(),
  configPath: z.string(),
  info: GatewayInfoSchema,
  /** Set when the gateway was running and swapped its config. */
  reload: ReloadRecordSchema.nullable(),
  /** Warnings that did not prevent saving (e.g. an override for an interceptor no server lists). */
  warnings: z.array(OverrideIssueSchema),
});
export type ChainSaveResult = z.infer<typeof ChainSaveResultSchema>;
