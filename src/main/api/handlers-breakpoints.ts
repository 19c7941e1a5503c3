// Handlers of the breakpoints debugger (procedures-breakpoints.ts): thin, the PauseService decides.
import type { PauseService } from '../services/breakpoints/pause-service';
import type { Handlers } from './dispatcher';

export function buildBreakpointsHandlers(pauses: PauseService): Handlers {
  return {
    'breakpoints.paused': () => pauses.paused(),
    'breakpoints.decide': ({ gateway, id, decision }) => pauses.decide(gateway, id, decision),
    'breakpoints.get': ({ id }) => pauses.get(id),
    'breakpoints.set': ({ id, live }) => pauses.set(id, live),
    'breakpoints.attach': ({ name, url, token }) => pauses.attach(name, url, token),
    'breakpoints.detach': ({ name }) => pauses.detach(name),
    'breakpoints.attached': () => pauses.attached(),
  };
}
