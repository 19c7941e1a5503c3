// Links into the Playground from a recorded execution (Traffic's detail can use them):
//   #/playground/invoke/<executionId>[/request|/response]   invoke with that execution's payload
//   #/playground/dry-run/<executionId>[/request|/response]  dry-run the chain on it
// The router only reads the first segment, so these need no route of their own.
import { useEffect, useState } from 'react';
import type { ApiClient } from '../../../../shared/api/client';
import type { Phase } from '../../../../shared/protocol/constants';

// One definition (the protocol's), re-exported for the screens that import it from here.
export type { Phase };

export interface PayloadSeed {
  /** Changes with every link followed, so the same execution can be loaded twice. */
  nonce: number;
  executionId: string;
  gateway: string;
  event: string;
  phase: Phase;
  payload: unknown;
}

export interface PlaygroundLink {
  tab: 'invoke' | 'dry-run';
  executionId: string;
  phase: Phase;
}

export function parsePlaygroundLink(hash: string): PlaygroundLink | undefined {
  const [route, tab, id, phase] = hash.replace(/^#\/?/, '').split('/');
  if (route !== 'playground' || (tab !== 'invoke' && tab !== 'dry-run') || !id) return undefined;
  return { tab, executionId: decodeURIComponent(id), phase: phase === 'response' ? 'response' : 'request' };
}

/** Follows a link in the hash (now and on every change): fetches the execution and hands out a seed. */
export function useExecutionLink(api: ApiClient) {
  const [seed, setSeed] = useState<{ tab: PlaygroundLink['tab']; seed: PayloadSeed }>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const follow = async () => {
      const link = parsePlaygroundLink(location.hash);
      if (!link) return;
      // Back to the plain route, so a reload does not re-apply the link over the user's edits.
      history.replaceState(null, '', '#/playground');
      try {
        const detail = await api.call('history.detail', { executionId: link.executionId });
        const payload = link.phase === 'request' ? detail.requestReceived : detail.responseReceived;
        if (payload === undefined) throw new Error(`Execution ${link.executionId} has no recorded ${link.phase} payload.`);
        setError(undefined);
        setSeed({
          tab: link.tab,
          seed: { nonce: Date.now(), executionId: link.executionId, gateway: detail.gateway, event: detail.event, phase: link.phase, payload },
        });
      } catch (err) {
        setError(err);
      }
    };
    void follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [api]);
  return { link: seed, error };
}
