// Procedures of the Chain screen and the new-gateway wizard. The effective order itself is `chain.order`
// (computed by the chain engine); these load, check and save the config document around it.
import { z } from 'zod';
import { GatewayIdSchema } from './models';
import {
  ChainDiscoverySchema,
  ChainDocumentSchema,
  ChainSaveResultSchema,
  OverrideIssueSchema,
  ReloadRecordSchema,
  TestBackendResultSchema,
  TestServerResultSchema,
} from './models-chain';

/** A config (possibly an unsaved draft); the service validates it with the gateway config schema. */
const Config = z.record(z.string(), z.unknown());
/** One transport entry as written in a config; validated by the service with the config schema. */
const Entry = z.record(z.string(), z.unknown());

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

export const chainProcedures = {
  'chain.load': proc(z.object({ id: GatewayIdSchema }), ChainDocumentSchema, 'The config file of a gateway as text, exactly as on disk.'),
  'chain.save': proc(
    z.object({ id: GatewayIdSchema, text: z.string().max(4_000_000) }),
    ChainSaveResultSchema,
    'Validates the config text (schema and hook narrowing), writes it byte for byte; a running gateway hot-reloads it.',
  ),
  'chain.discover': proc(
    z.object({ id: GatewayIdSchema, config: Config.optional(), refresh: z.boolean().default(false) }),
    ChainDiscoverySchema,
    'Every interceptor server of the (draft) config with what it discovered, or its connection error.',
  ),
  'chain.checkOverrides': proc(
    z.object({ id: GatewayIdSchema, config: Config }),
    z.array(OverrideIssueSchema),
    "Checks a draft's overrides against the discovered descriptors (the chain engine's validateOverrides: widening hooks is an error).",
  ),
  'chain.testServer': proc(
    z.object({ entry: Entry }),
    TestServerResultSchema,
    'Connects to one interceptor-server entry, discovers its interceptors, disconnects.',
  ),
  'chain.testBackend': proc(z.object({ entry: Entry }), TestBackendResultSchema, 'Connects to a backend entry as an MCP client, lists its tools, disconnects.'),
  'chain.samplesEntry': proc(
    z.object({ name: z.string().min(1).default('samples') }),
    Entry,
    'The interceptor-server entry that runs the bundled sample interceptors from this installation.',
  ),
  'chain.freePort': proc(z.object({}).optional(), z.object({ port: z.number().int() }), 'A free loopback TCP port for a new listener.'),
  'chain.reloads': proc(
    z.object({ id: GatewayIdSchema }),
    z.array(ReloadRecordSchema),
    'Config reloads of a gateway recorded since the app started, newest first.',
  ),
} as const;
