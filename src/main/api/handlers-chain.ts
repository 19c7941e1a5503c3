// Handlers of the Chain screen and the new-gateway wizard (procedures-chain.ts), plus `chain.order`
// on a draft: the order is the chain engine's (through the ChainPort), never computed here.
import { ApiError } from '../../shared/api/envelope';
import { ChainEditor } from '../services/chain-editor/chain-editor';
import { probeBackend, probeInterceptorServer } from '../services/chain-editor/probe';
import { freeLoopbackPort } from '../services/demo-gateway';
import { localizeConfig } from '../services/examples';
import type { Handlers } from './dispatcher';
import type { HandlerDeps } from './handlers';

export function buildChainHandlers(d: HandlerDeps): Handlers {
  const pool = () => d.pool ?? unavailable('This console was started without interceptor server connections, so they are unavailable.');
  const chain = () => d.chain ?? unavailable('This console was started without the chain engine, so chain procedures are unavailable.');
  const editor = new ChainEditor(d.env, d.manager, pool);

  return {
    'chain.order': async ({ id, event, phase, config, protocolVersion }) => ({
      event,
      phase,
      interceptors: await chain().order(id, editor.configFor(id, config), event, phase, protocolVersion ? { protocolVersion } : {}),
    }),
    'chain.load': ({ id }) => editor.load(id),
    'chain.save': ({ id, text }) => editor.save(id, text),
    'chain.discover': ({ id, config, refresh }) => editor.discover(id, editor.configFor(id, config), refresh),
    'chain.checkOverrides': ({ id, config }) => editor.checkOverrides(id, editor.parseDraft(config)),
    'chain.testServer': ({ entry }) => probeInterceptorServer(entry, d.env),
    'chain.testBackend': ({ entry }) => probeBackend(entry, d.env),
    'chain.samplesEntry': ({ name }) =>
      (
        localizeConfig({ staticInterceptors: [{ transport: 'stdio', name, command: 'interceptor-console', arguments: ['serve-samples'] }] }, d.env)
          .staticInterceptors as Record<string, unknown>[]
      )[0]!,
    'chain.freePort': async () => ({ port: await freeLoopbackPort() }),
    'chain.reloads': ({ id }) => {
      d.manager.status(id); // not_found for an unknown gateway
      return editor.reloads.list(id);
    },
  };
}

function unavailable(message: string): never {
  throw new ApiError('unavailable', message);
}
