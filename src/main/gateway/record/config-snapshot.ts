// What the history keeps of a gateway's config ("which chain produced this execution?"): the
// config as run, minus its secrets (src/shared/config/secrets.ts says which parts those are).
import type { GatewayConfig } from '../../../shared/config/schema';
import { withoutConfigSecrets } from '../../../shared/config/secrets';

export { REDACTED } from '../../../shared/config/secrets';

export function configSnapshot(config: GatewayConfig): unknown {
  return withoutConfigSecrets(config);
}
