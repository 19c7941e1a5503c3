// secretless-redactor (TS security samples): before a request leaves, every secret of a known
// format is replaced by `<mcp:secret-ref:{formatId}:{fnv1a32 hex}>`, so the verbatim value never
// reaches the tool, the model or the user, while equal secrets keep equal handles.
import { mutator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, type SampleOverrides } from './common';
import { redactSecrets } from './secrets';

export function secretlessRedactor(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    mutator({
      name: 'secretless-redactor',
      description:
        'Replaces secrets (AWS access keys, GitHub tokens, Stripe live keys, Slack tokens, private keys) in outgoing requests with <mcp:secret-ref:…> handles.',
      version: '1.0.0',
      events: ['tools/call', 'sampling/createMessage', 'elicitation/create'],
      phase: 'request',
      // Security band: before any other transformation sees the payload.
      priorityHint: -1_000_000,
      handler: (payload) => {
        const { value, redactions } = redactSecrets(payload);
        if (redactions.length === 0) return { modified: false, payload };
        return { modified: true, payload: value, info: { redactions } };
      },
    }),
    overrides,
  );
}
