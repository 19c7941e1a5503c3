// Handlers of the Tests screen and Traffic's "Save as test case" (procedures-chain-tests.ts).
import { ApiError } from '../../shared/api/envelope';
import { formatConfigErrors, parseGatewayConfig } from '../../shared/config';
import { ChainTestService } from '../services/chain-tests/chain-test-service';
import type { Handlers } from './dispatcher';
import type { HandlerDeps } from './handlers';

export function buildChainTestHandlers(d: HandlerDeps): Handlers {
  const tests = new ChainTestService({
    manager: d.manager,
    configFor: (id, draft) => {
      if (draft === undefined) return d.manager.config(id);
      const parsed = parseGatewayConfig(draft);
      if (!parsed.ok) throw new ApiError('invalid_config', `The draft config is invalid:\n${formatConfigErrors(parsed.errors)}`);
      return parsed.config;
    },
    readRecord: (executionId) => d.history.history.getExecutionRecord(executionId),
  });
  return {
    'tests.list': ({ id }) => tests.list(id),
    'tests.save': ({ id, executionIds, name }) => tests.save(id, executionIds, name),
    'tests.run': ({ id, config, files, live }) => tests.run(id, config, files, live),
    'tests.remove': ({ id, file }) => tests.remove(id, file),
  };
}
