// pii-validator (C# InterceptorServerSample / TS examples): blocks a tools/call request whose JSON
// text mentions an SSN ("ssn" or "social security", any case).
import { validator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

const SSN_HINT = /ssn|social security/i;

export function piiValidator(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    validator({
      name: 'pii-validator',
      description: 'Rejects tool calls whose arguments mention Social Security Numbers ("ssn" or "social security").',
      version: '1.0.0',
      events: ['tools/call'],
      phase: 'request',
      handler: (payload) => {
        if (!SSN_HINT.test(jsonText(payload))) return { valid: true };
        return {
          valid: false,
          severity: 'error',
          messages: [{ path: '$.arguments', message: 'Payload may contain Social Security Number data', severity: 'error' }],
        };
      },
    }),
    overrides,
  );
}
