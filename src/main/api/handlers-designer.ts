// Handlers of the Chain screen and the new-gateway wizard (procedures-designer.ts), plus `chain.order`
// on a draft: the order is the chain engine's (through the ChainPort), never computed here.
import { ApiError } from '../../shared/api/envelope';
import { ChainDesigner } from '../services/designer/chain-designer';
import { probeBackend, probeInterceptorServer } from '../services/designer/probe';
import { freeLoopbackPort } from '../services/demo-gateway';
import { localizeConfig } from '../services/examples';
import type { Handlers } from './dispatcher';
import type { HandlerDeps } from './handlers';

export function buildDesignerHandlers(d: HandlerDeps): Handlers {
  const pool = () => d.pool ?? unavailable('This console was started without interceptor server connections, so they are unavailable.');
  const chain = () => d.chain ?? unavailable('This console was started without the chain engine, so chain procedures are unavailable.');
  const designer = new ChainDesigner(d.env, d.manager, pool);

  return {
    'chain.order': async ({ id, event, phase, config, protocolVersion }) => ({
      event,
      phase,
      interceptors: await chain().order(id, designer.configFor(id, config), event, phase, protocolVersion ? { protocolVersion } : {}),
    }),
    'designer.load': ({ id }) => designer.load(id),
    'designer.save': ({ id, text }) => designer.save(id, text),
    'designer.discover': ({ id, config, refresh }) => designer.discover(id, designer.configFor(id, config), refresh),
    'designer.checkOverrides': ({ id, config }) => designer.checkOverrides(id, designer.parseDraft(config)),
    'designer.testServer': ({ entry }) => probeInterceptorServer(entry, d.env),
    'designer.testBackend': ({ entry }) => probeBackend(entry, d.env),
    'designer.samplesEntry': ({ name }) =>
      (localizeConfig({ staticInterceptors: [{ transport: 'stdio', name, command: 'interceptor-console', arguments: ['serve-samples'] }] }, d.env)
        .staticInterceptors as Record<string, unknown>[])[0]!,
    'designer.freePort': async () => ({ port: await freeLoopbackPort() }),
    'designer.reloads': ({ id }) => {
      d.manager.status(id); // not_found for an unknown gateway
      return designer.reloads.list(id);
    },
  };
}

function unavailable(message: string): never {
  throw new ApiError('unavailable', message);
}
