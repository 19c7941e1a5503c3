// The API client for components, and the bridge from pushed events to React Query: each query names
// the tables it reads (meta.tables); "tables changed" invalidates exactly those queries.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createApiClient, type ApiClient } from '../../../shared/api/client';
import type { TableName } from '../../../shared/api/events';
import type { ProcedureInput, ProcedureName, ProcedureOutput } from '../../../shared/api/procedures';
import { createTransport } from './transport';

const ApiContext = createContext<ApiClient | null>(null);

export function createClient(): ApiClient {
  return createApiClient(createTransport());
}

export function ApiProvider({ client, queryClient, children }: { client: ApiClient; queryClient: QueryClient; children: ReactNode }) {
  useEffect(
    () =>
      client.onEvent((event) => {
        const tables: TableName[] =
          event.type === 'tables.changed'
            ? event.tables
            : event.type === 'gateway.status'
              ? ['gateways']
              : event.type === 'executions.new'
                ? ['executions']
                : event.type === 'messages.new'
                  ? ['messages']
                  : event.type === 'pauses.changed'
                    ? ['pauses']
                    : []; // replay.progress: read by the screen that started the job, not by cached queries
        if (tables.length === 0) return;
        void queryClient.invalidateQueries({
          predicate: (q) => ((q.meta?.tables as TableName[] | undefined) ?? []).some((t) => tables.includes(t)),
        });
      }),
    [client, queryClient],
  );
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi outside ApiProvider');
  return client;
}

/** A query on one procedure, refetched when any of `tables` changes. */
export function useApiQuery<N extends ProcedureName>(
  name: N,
  input: ProcedureInput<N>,
  tables: TableName[],
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  const api = useApi();
  return useQuery({
    queryKey: [name, input],
    queryFn: () => (api.call as (n: N, i: ProcedureInput<N>) => Promise<ProcedureOutput<N>>)(name, input),
    meta: { tables },
    ...options,
  });
}

export function useApiMutation<N extends ProcedureName>(name: N, invalidates: TableName[] = []) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProcedureInput<N>) => (api.call as (n: N, i: ProcedureInput<N>) => Promise<ProcedureOutput<N>>)(name, input),
    onSettled: () =>
      queryClient.invalidateQueries({
        predicate: (q) => ((q.meta?.tables as TableName[] | undefined) ?? []).some((t) => invalidates.includes(t)),
      }),
  });
}
