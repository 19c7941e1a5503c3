// What the Chain screen reads from the core for the current draft: every server's discovery (refetched
// only when the servers change, not on every override edit) and the engine's order for both phases of
// the selected event (refetched on every valid edit, debounced). The UI never orders anything itself.
import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import type { ProcedureOutput } from '../../../../shared/api/procedures';
import type { ChainDiscovery } from '../../../../shared/api/models-chain';
import type { OrderedInterceptorView } from '../../../../shared/api/chain-order';
import type { Phase } from '../../../../shared/protocol/constants';

// One definition (the protocol's), re-exported for the screens that import it from here.
export type { Phase };

/** One entry of `chain.order`: an interceptor as the engine plans it, or skipped with the reason. */
export type OrderedEntry = OrderedInterceptorView;

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export interface ChainData {
  discovery: ChainDiscovery | undefined;
  discoveryError: unknown;
  discovering: boolean;
  refreshDiscovery(): void;
  order: Record<Phase, OrderedEntry[] | undefined>;
  orderError: unknown;
  ordering: boolean;
  /**
   * The config the canvas shows: the last draft that passed the schema. Every view that shows effective
   * settings reads its overrides from this same draft, so a broken JSON tab cannot make them disagree.
   */
  draft: Record<string, unknown> | undefined;
}

export function useChainData(id: string, raw: Record<string, unknown> | undefined, valid: boolean, event: string, protocolVersion: string): ChainData {
  const api = useApi();
  // Only a draft that passes the schema is sent; while the text is broken the last good answer stays up.
  const [draft, setDraft] = useState<Record<string, unknown> | undefined>(undefined);
  useEffect(() => {
    if (valid && raw) setDraft(raw);
  }, [valid, raw]);
  const config = useDebounced(draft, 200);
  const serversKey = JSON.stringify([config?.staticInterceptors ?? null, config?.dynamicInterceptors ?? null]);
  const [refresh, setRefresh] = useState(0);
  // "Refresh" forces one new interceptors/list per server; later discoveries use the cache again (A15).
  const forceNext = useRef(false);

  // Overrides are in the key because the answer judges each interceptor's config against them (configErrors);
  // the servers answer from their discovery cache, so an override edit costs no new interceptors/list.
  const overridesKey = JSON.stringify(config?.overrides ?? null);
  const discovery = useQuery({
    queryKey: ['chain.discover', id, serversKey, overridesKey, refresh],
    queryFn: () => {
      const force = forceNext.current;
      forceNext.current = false;
      return api.call('chain.discover', { id, config: config!, refresh: force });
    },
    enabled: Boolean(config),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { tables: ['gateways'] },
  });
  const configKey = JSON.stringify(config ?? null);
  const orderFor = (phase: Phase) => ({
    queryKey: ['chain.order', id, event, phase, protocolVersion, configKey, serversKey, discovery.dataUpdatedAt],
    queryFn: async () =>
      (await api.call('chain.order', { id, event, phase, config: config!, ...(protocolVersion ? { protocolVersion } : {}) })) as ProcedureOutput<'chain.order'>,
    enabled: Boolean(config) && event.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const request = useQuery(orderFor('request'));
  const response = useQuery(orderFor('response'));

  return {
    draft,
    discovery: discovery.data,
    discoveryError: discovery.error,
    discovering: discovery.isFetching,
    refreshDiscovery: () => {
      forceNext.current = true;
      setRefresh((n) => n + 1);
    },
    order: {
      request: request.data?.interceptors as OrderedEntry[] | undefined,
      response: response.data?.interceptors as OrderedEntry[] | undefined,
    },
    orderError: request.error ?? response.error,
    ordering: request.isFetching || response.isFetching,
  };
}

/** Splits an order into the lanes the canvas draws; the engine's sequence is kept as is. */
export function lanes(entries: OrderedEntry[] | undefined) {
  const all = entries ?? [];
  const applies = all.filter((e) => !e.skipped);
  return {
    mutations: applies.filter((e) => e.pass === 'mutation'),
    validations: applies.filter((e) => e.pass === 'validation'),
    sinks: applies.filter((e) => e.pass === 'sink'),
    skipped: all.filter((e) => e.skipped),
  };
}
