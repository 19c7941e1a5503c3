// email-redactor (C# InterceptorServerSample / TS examples): replaces e-mail addresses in the
// serialized request with [EMAIL_REDACTED]. Priority -1000 (sanitisation band) so it runs early.
import { mutator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

export const EMAIL_PATTERN = /[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}/g;
export const EMAIL_REPLACEMENT = '[EMAIL_REDACTED]';

export function emailRedactor(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    mutator({
      name: 'email-redactor',
      description: 'Replaces e-mail addresses in tool call arguments with [EMAIL_REDACTED].',
      version: '1.0.0',
      events: ['tools/call'],
      phase: 'request',
      priorityHint: -1000,
      handler: (payload) => {
        const text = jsonText(payload);
        // The pattern cannot match a quote or backslash, so replacing inside JSON text keeps it valid.
        const redacted = text.replace(EMAIL_PATTERN, EMAIL_REPLACEMENT);
        if (redacted === text) return { modified: false, payload };
        return { modified: true, payload: JSON.parse(redacted) as unknown };
      },
    }),
    overrides,
  );
}
