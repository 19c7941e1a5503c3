// A chain test case ([chain-tests]): one recorded call and what the chain must do with it, kept as a
// readable JSON file in `<gateway>.tests/` beside the gateway's config so that it lives in git with it.
// A folder is read case by case: a file that is not a case is that case's error, never the suite's.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';

export const CASE_FORMAT = 'interceptor-console.chain-test/1';

/** What the client ends up with: the chain's decision as the Traffic screen names it. */
export const CaseOutcomeSchema = z.enum(['allowed', 'blocked', 'mutated', 'error']);
export type CaseOutcome = z.infer<typeof CaseOutcomeSchema>;

/** An interceptor that decided: it blocked the call or changed its payload, in one phase. */
export const DecisionSchema = z.strictObject({
  interceptor: z.string().min(1, 'interceptor is "server/name"'),
  phase: z.enum(['request', 'response']),
  outcome: z.enum(['blocked', 'mutated']),
});
export type Decision = z.infer<typeof DecisionSchema>;

const RpcErrorSchema = z.strictObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

export const ChainTestCaseSchema = z.strictObject({
  format: z.literal(CASE_FORMAT, { error: `format must be "${CASE_FORMAT}"` }),
  name: z.string().min(1),
  description: z.string().optional(),
  /** The JSON-RPC method, which is the interceptor event (tools/call, resources/read...). */
  method: z.string().min(1),
  /** The request params as the client sent them. */
  request: z.unknown(),
  /** What the backend answered the recorded call; the mocked backend answers the same. */
  backendAnswer: z.union([z.strictObject({ result: z.unknown() }), z.strictObject({ error: RpcErrorSchema })]).optional(),
  principal: z.string().optional(),
  protocolVersion: z.string().optional(),
  expect: z.strictObject({
    outcome: CaseOutcomeSchema,
    /** Exactly these interceptors blocked or mutated, in order (request phase first). */
    decidedBy: z.array(DecisionSchema).optional(),
    /** The params the backend must get (after request-phase mutations). */
    forwarded: z.unknown().optional(),
    /** The result the client must get (after response-phase mutations, or the block's answer). */
    returned: z.unknown().optional(),
    /** The JSON-RPC error the client must get instead of a result. */
    error: z.strictObject({ code: z.number().int(), message: z.string().optional() }).optional(),
    /** JSON paths left out of the forwarded/returned comparison, e.g. "$.arguments.timestamp", "$.content[*].id". */
    ignore: z.array(z.string().regex(/^\$/, 'a JSON path starts with "$"')).optional(),
  }),
  /** Where the case came from and what each interceptor did then (shown beside a run's steps). */
  recorded: z
    .strictObject({
      gateway: z.string().optional(),
      execution: z.string().optional(),
      at: z.string().optional(),
      steps: z.array(z.strictObject({ interceptor: z.string(), phase: z.enum(['request', 'response']), outcome: z.string() })).optional(),
    })
    .optional(),
});
export type ChainTestCase = z.infer<typeof ChainTestCaseSchema>;

export interface LoadedCase {
  file: string;
  case?: ChainTestCase;
  /** Why this file is not a usable case (unreadable, not JSON, not a case). */
  error?: string;
}

/** A case file's name without folder and `.json`: how a case that is not usable is called, and `--case` may name one. */
export function caseNameOf(file: string): string {
  return basename(file, '.json');
}

/** `gw.json` → `gw.tests` (the folder of that gateway's cases). */
export function testsDirFor(configPath: string): string {
  const ext = extname(configPath);
  return join(dirname(configPath), `${basename(configPath, ext)}.tests`);
}

/** Every `*.json` in the folder, in name order, each parsed on its own. A missing folder has no cases. */
export function loadCases(dir: string): LoadedCase[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.map((f) => loadCase(join(dir, f)));
}

export function loadCase(file: string): LoadedCase {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { file, error: `cannot read the file: ${(err as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { file, error: `not JSON: ${(err as Error).message}` };
  }
  const parsed = ChainTestCaseSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    return { file, error: `not a chain test case: ${issues.join('; ')}` };
  }
  return { file, case: parsed.data };
}

/** A file name for a case name: lower case, words joined by dashes, at most 80 characters. */
export function caseFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || 'case'}.json`;
}

/** Writes the case as indented JSON under a name not taken yet (`x.json`, `x-2.json`...); returns the path. */
export function saveCase(dir: string, testCase: ChainTestCase): string {
  const checked = ChainTestCaseSchema.parse(testCase);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const base = caseFileName(checked.name).replace(/\.json$/, '');
  let file = join(dir, `${base}.json`);
  for (let n = 2; existsSync(file); n++) file = join(dir, `${base}-${n}.json`);
  // Owner-only, like every file the console writes: a case holds recorded payloads.
  writeFileSync(file, `${JSON.stringify(checked, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  return file;
}
