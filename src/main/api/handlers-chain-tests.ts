// Handlers of the Tests screen and Traffic's "Save as test case" (procedures-chain-tests.ts).
import { parseDraftConfig } from '../services/chain-editor/chain-editor';
import { ChainTestService } from '../services/chain-tests/chain-test-service';
import type { Handlers } from './dispatcher';
import type { HandlerDeps } from './handlers';

export function buildChainTestHandlers(d: HandlerDeps): Handlers {
  const tests = new ChainTestService({
    manager: d.manager,
    configFor: (id, draft) => (draft === undefined ? d.manager.config(id) : parseDraftConfig(draft)),
    readRecord: (executionId) => d.history.history.getExecutionRecord(executionId),
  });
  return {
    'tests.list': ({ id }) => tests.list(id),
    'tests.save': ({ id, executionIds, name }) => tests.save(id, executionIds, name),
    'tests.run': ({ id, config, files, live }) => tests.run(id, config, files, live),
    'tests.remove': ({ id, file }) => tests.remove(id, file),
  };
}
