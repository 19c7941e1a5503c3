// Turns an author's registration into the descriptor the host advertises: `phase:"both"` becomes
// two hooks (request first), defaults are applied, and the result must pass the descriptor schema.
import { InterceptorDescriptorSchema, type InterceptorDescriptor } from '../../../shared/protocol/schemas';
import { compileConfigSchema, type ConfigValidator } from './config-validation';
import type { InterceptorRegistration } from './types';

export interface RegisteredInterceptor {
  descriptor: InterceptorDescriptor;
  registration: InterceptorRegistration;
  validateConfig?: ConfigValidator;
}

const PHASE_OPTIONS = new Set(['request', 'response', 'both']);

export function normalizeRegistration(r: InterceptorRegistration): RegisteredInterceptor {
  if (!r || typeof r !== 'object') throw new Error('An interceptor registration must be an object.');
  if (typeof r.name !== 'string' || r.name.length === 0) {
    throw new Error('An interceptor registration needs a non-empty `name`.');
  }
  if (typeof r.handler !== 'function') throw new Error(`Interceptor '${r.name}' needs a handler function.`);
  if (!PHASE_OPTIONS.has(r.phase)) {
    throw new Error(`Interceptor '${r.name}': phase must be "request", "response" or "both", got ${JSON.stringify(r.phase)}.`);
  }
  const events = r.events ?? ['*'];
  if (!Array.isArray(events) || events.some((e) => typeof e !== 'string' || e.length === 0)) {
    throw new Error(`Interceptor '${r.name}': events must be an array of non-empty strings.`);
  }
  const phases = r.phase === 'both' ? (['request', 'response'] as const) : ([r.phase] as const);
  const candidate = {
    name: r.name,
    version: r.version,
    description: r.description,
    type: r.type,
    hooks: phases.map((phase) => ({ events: [...events], phase })),
    mode: r.mode,
    failOpen: r.failOpen,
    priorityHint: r.priorityHint,
    compat: r.compat,
    configSchema: r.configSchema,
    _meta: r._meta,
  };
  const parsed = InterceptorDescriptorSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Interceptor '${r.name}' is not a valid descriptor: ${issue?.path.join('.') || '(root)'} ${issue?.message}`);
  }
  const validateConfig = r.configSchema ? compileConfigSchema(r.name, r.configSchema) : undefined;
  if (validateConfig && r.defaultConfig !== undefined) {
    const problem = validateConfig(r.defaultConfig);
    if (problem) throw new Error(`Interceptor '${r.name}': defaultConfig does not match configSchema: ${problem}`);
  }
  return { descriptor: parsed.data, registration: r, validateConfig };
}
