// completion/complete from the built-in client: what is completed is either a prompt's argument
// (ref/prompt) or one variable of a resource template's URI (ref/resource), never both.
import { z } from 'zod';

export const ClientCompletionInputSchema = z
  .object({
    sessionId: z.string().min(1),
    /** The prompt whose argument is completed (ref/prompt). */
    prompt: z.string().min(1).optional(),
    /** The resource template's uriTemplate whose variable is completed (ref/resource). */
    resourceTemplate: z.string().min(1).optional(),
    /** The prompt argument or template variable being typed, and what is typed in it so far. */
    argument: z.object({ name: z.string().min(1), value: z.string() }),
    /** The other arguments (or variables) as filled so far: a server may narrow its suggestions by them. */
    context: z.record(z.string(), z.string()).default({}),
  })
  .refine((i) => (i.prompt === undefined) !== (i.resourceTemplate === undefined), {
    message: 'give either prompt (a prompt argument) or resourceTemplate (a URI template variable) to complete, exactly one',
    path: ['prompt'],
  });
export type ClientCompletionInput = z.infer<typeof ClientCompletionInputSchema>;

export const ClientCompletionSchema = z.object({
  values: z.array(z.string()),
  total: z.number().optional(),
  hasMore: z.boolean().optional(),
});
export type ClientCompletion = z.infer<typeof ClientCompletionSchema>;

/** What a completion refers to, as completion/complete's `ref` names it. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export function completionRef(input: Pick<ClientCompletionInput, 'prompt' | 'resourceTemplate'>): CompletionRef {
  return input.prompt !== undefined ? { type: 'ref/prompt', name: input.prompt } : { type: 'ref/resource', uri: input.resourceTemplate ?? '' };
}
