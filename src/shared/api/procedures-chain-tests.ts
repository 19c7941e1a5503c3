// Procedures of the Tests screen and Traffic's "Save as test case" ([chain-tests]).
import { z } from 'zod';
import { GatewayIdSchema } from './models';
import { CaseListSchema, SavedCasesSchema, SuiteRunSchema } from './models-chain-tests';

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

const CaseFile = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\\]+\.json$/, 'a case file name such as "tools-call-echo-allowed.json"');

export const chainTestProcedures = {
  'tests.list': proc(z.object({ id: GatewayIdSchema }), CaseListSchema, "A gateway's chain test cases (<gateway>.tests/ beside its config), one per file."),
  'tests.save': proc(
    z.object({
      id: GatewayIdSchema,
      executionIds: z.array(z.string().min(1).max(100)).min(1).max(200),
      /** The case's name (one execution); several get their default names. */
      name: z.string().max(200).optional(),
    }),
    SavedCasesSchema,
    'Saves recorded executions as chain test cases of a gateway: the request, the backend answer and what the chain did.',
  ),
  'tests.run': proc(
    z.object({
      id: GatewayIdSchema,
      /** An unsaved draft of the gateway's config (the Chain screen's); the saved config when absent. */
      config: z.record(z.string(), z.unknown()).optional(),
      files: z.array(CaseFile).max(1000).optional(),
      /** Through the chain to the gateway's real backend (started for the run) instead of the recorded answers. */
      live: z.boolean().default(false),
    }),
    SuiteRunSchema,
    "Runs a gateway's chain test cases through its chain (or a draft of it) with the backend mocked by each recorded answer.",
  ),
  'tests.remove': proc(z.object({ id: GatewayIdSchema, file: CaseFile }), z.object({ removed: z.boolean() }), 'Deletes one chain test case file.'),
} as const;
