// The conformance fixture format (../shared/conformance/README.md) plus this project's extensions:
// interceptor fields `priorityHint`, `timeoutMs` (invoker-side override), `server`, type `sink`;
// `apply` steps with `timeoutMs` (whole chain) and `expect.outcomes`; invoke params `timeoutMs`.
// Parsing is lenient where the suite is (unknown keys ignored) and strict where a typo would make
// a fixture silently test nothing.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { ModeSchema, PhaseSchema, PriorityHintSchema } from '../../../shared/protocol/schemas';

export const FixtureInterceptorSchema = z.looseObject({
  name: z.string().min(1),
  type: z.enum(['validation', 'mutation', 'sink']),
  behavior: z.string().min(1),
  events: z.array(z.string().min(1)).min(1),
  phases: z.enum(['request', 'response', 'both']),
  mode: ModeSchema.optional(),
  failOpen: z.boolean().optional(),
  priorityHint: PriorityHintSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
  server: z
    .string()
    .min(1)
    .regex(/^[^/]+$/, 'server names cannot contain "/"')
    .optional(),
});
export type FixtureInterceptor = z.infer<typeof FixtureInterceptorSchema>;

const ResultExpectSchema = z
  .looseObject({ result: z.unknown().optional(), canonical: z.string().optional() })
  .refine((e) => e.canonical !== undefined || e.result !== undefined, 'expect needs "canonical" or "result"');

const ListStepSchema = z.looseObject({
  op: z.literal('list'),
  event: z.string().nullable().optional(),
  expect: ResultExpectSchema,
});

const InvokeStepSchema = z.looseObject({
  op: z.literal('invoke'),
  params: z.looseObject({
    name: z.string(),
    event: z.string(),
    phase: PhaseSchema,
    payload: z.unknown(),
    config: z.record(z.string(), z.unknown()).optional(),
    timeoutMs: z.number().int().nonnegative().optional(),
    /** Extension: which server to invoke when several are registered. */
    server: z.string().optional(),
  }),
  expect: z.union([z.looseObject({ errorCode: z.number().int() }), ResultExpectSchema]),
});

const ApplyStepSchema = z.looseObject({
  op: z.enum(['apply', 'chain']),
  event: z.string().min(1),
  phase: PhaseSchema,
  payload: z.unknown(),
  context: z.record(z.string(), z.unknown()).nullable().optional(),
  timeoutMs: z.number().int().positive().optional(),
  expect: z.looseObject({
    decision: z.enum(['allow', 'deny']),
    finalPayload: z.unknown().optional(),
    finalPayloadCanonical: z.string().optional(),
    forbids: z.array(z.string()).optional(),
    requires: z.array(z.string()).optional(),
    /** Extension: trace outcome per interceptor (`name`, or `server/name` when names repeat). */
    outcomes: z.record(z.string(), z.string()).optional(),
  }),
});

export const FixtureStepSchema = z.discriminatedUnion('op', [ListStepSchema, InvokeStepSchema, ApplyStepSchema]);
export type FixtureStep = z.infer<typeof FixtureStepSchema>;
export type ListStep = z.infer<typeof ListStepSchema>;
export type InvokeStep = z.infer<typeof InvokeStepSchema>;
export type ApplyStep = z.infer<typeof ApplyStepSchema>;

export const FixtureSchema = z.looseObject({
  // The suite's id pattern rejects "_" although its own ids use it: ids are not validated strictly.
  id: z.string().min(1),
  kind: z.string().optional(),
  requirement: z.string().optional(),
  description: z.string().optional(),
  interceptors: z.array(FixtureInterceptorSchema),
  steps: z.array(FixtureStepSchema).min(1),
  volatile: z.array(z.string()).default(['durationMs', 'totalDurationMs', 'info']),
});
export type Fixture = z.infer<typeof FixtureSchema>;

export type LoadedFixture = { file: string; ok: true; fixture: Fixture } | { file: string; ok: false; id: string; error: string };

export class FixtureFolderError extends Error {
  override name = 'FixtureFolderError';
}

/** Every fixture JSON below `dir`, recursively, sorted by path; manifest and schema files are skipped. */
export async function loadFixtures(dir: string): Promise<LoadedFixture[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new FixtureFolderError(`Fixture folder ${dir} does not exist; pass a folder containing fixture JSON files.`);
  if (!info.isDirectory()) throw new FixtureFolderError(`${dir} is not a folder; pass a folder containing fixture JSON files.`);
  const files = (await walk(dir)).sort();
  const loaded: LoadedFixture[] = [];
  for (const file of files) {
    const rel = relative(dir, file);
    const fallbackId = rel
      .split(sep)
      .join('/')
      .replace(/\.json$/, '');
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      loaded.push({ file: rel, ok: false, id: fallbackId, error: `not valid JSON: ${(err as Error).message}` });
      continue;
    }
    const parsed = FixtureSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : fallbackId;
      loaded.push({ file: rel, ok: false, id, error: `not a valid fixture: ${issue?.path.join('.') || 'fixture'}: ${issue?.message}` });
      continue;
    }
    loaded.push({ file: rel, ok: true, fixture: parsed.data });
  }
  return loaded;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'schema' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      out.push(...(await walk(full)));
    } else if (entry.isFile() && entry.name.endsWith('.json') && entry.name !== 'manifest.json' && !entry.name.endsWith('.schema.json')) {
      out.push(full);
    }
  }
  return out;
}
