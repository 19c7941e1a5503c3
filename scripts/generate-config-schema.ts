// Writes resources/gateway-config.schema.json from the zod schema, so that configs can point `$schema` at it
// and editors complete and check them. Run: `npx tsx scripts/generate-config-schema.ts` (a test fails when
// the committed file is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gatewayConfigJsonSchema } from '../src/shared/config/json-schema';

const target = fileURLToPath(new URL('../resources/gateway-config.schema.json', import.meta.url));
writeFileSync(target, gatewayConfigJsonSchema());
console.log(`wrote ${target}`);
