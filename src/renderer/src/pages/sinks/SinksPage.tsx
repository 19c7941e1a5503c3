// Sinks: every event a sink interceptor handled, newest first, filtered by interceptor, event, phase,
// recorded or not, gateway and time (all by the store), each linked to its execution in Traffic.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SinkEvent } from '../../../../shared/api/models-traffic';
import { useApi, useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { WindowedTable } from '../../components/WindowedTable';
import { clockTime } from '../traffic/format';
import { trafficHref } from '../traffic/route';
import '../traffic/traffic.css';
import './sinks.css';

interface SinkFilter {
  interceptor?: string;
  event?: string;
  gateway?: string;
  phase?: 'request' | 'response';
  recorded?: boolean;
  since?: string;
}

const ROW = 30;
const COLUMNS = ['Time', 'Interceptor', 'Event', 'Phase', 'Recorded', 'Metrics / error', 'Gateway', 'Execution'].map((title) => ({ title }));
const RANGES: [string, number | undefined][] = [
  ['Any time', undefined],
  ['Last hour', 3_600_000],
  ['Last 24 hours', 86_400_000],
  ['Last 7 days', 7 * 86_400_000],
];

export function SinksPage() {
  const api = useApi();
  const [filter, setFilter] = useState<SinkFilter>({});
  const [range, setRange] = useState(0);
  const [items, setItems] = useState<SinkEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const facets = useApiQuery('history.facets', undefined, ['executions']);
  const generation = useRef(0);
  const busy = useRef(false);
  const key = JSON.stringify(filter);

  const load = useCallback(
    (after: string | null) => {
      const g = after ? generation.current : ++generation.current;
      busy.current = true;
      if (!after) setLoading(true);
      api.call('sinks.query', { ...(JSON.parse(key) as SinkFilter), ...(after ? { cursor: after } : {}), limit: after ? 300 : 100 }).then(
        (page) => {
          if (g !== generation.current) return;
          setItems((prev) => (after ? [...prev, ...page.items] : page.items));
          setCursor(page.nextCursor);
          setLoading(false);
          setError(null);
          busy.current = false;
        },
        (err: unknown) => {
          if (g !== generation.current) return;
          setError(err);
          setLoading(false);
          busy.current = false;
        },
      );
    },
    [api, key],
  );

  useEffect(() => load(null), [load]);
  // New sink events (live traffic): start again from the newest.
  useEffect(() => api.onEvent((e) => e.type === 'tables.changed' && e.tables.includes('sink_events') && load(null)), [api, load]);

  const onRange = useCallback(
    (_first: number, last: number) => {
      if (last >= items.length - 40 && cursor && !busy.current) load(cursor);
    },
    [items.length, cursor, load],
  );

  const set = (patch: Partial<SinkFilter>) => {
    const next: SinkFilter = { ...filter, ...patch };
    for (const k of Object.keys(next) as (keyof SinkFilter)[]) if (next[k] === undefined || next[k] === '') delete next[k];
    setFilter(next);
  };

  const renderRow = useCallback(
    (i: number) => {
      const s = items[i]!;
      return (
        <div className={`srow${s.recorded ? '' : ' not-recorded'}`} role="row">
          <span role="cell" className="mono muted">
            {clockTime(s.at)}
          </span>
          <span role="cell" title={s.interceptor}>
            <b>{s.name}</b> <span className="muted">{s.server}</span>
          </span>
          <span role="cell" className="mono">
            {s.event}
          </span>
          <span role="cell">{s.phase}</span>
          <span role="cell">{s.recorded ? <span className="pill allow">recorded</span> : <span className="pill blocked">not recorded</span>}</span>
          <span role="cell" className="mono muted" title={metrics(s)}>
            {metrics(s) || errorOf(s)}
          </span>
          <span role="cell">{s.gateway}</span>
          <span role="cell">
            <a href={trafficHref({ view: 'list', selected: s.executionId })} className="mono" aria-label={`Open execution ${s.executionId}`}>
              {s.executionId.slice(0, 8)}
            </a>
          </span>
        </div>
      );
    },
    [items],
  );

  // Only interceptors that handled sink events: a validator or mutator here would always show nothing.
  const interceptors = facets.data?.sinks ?? [];
  return (
    <div className="traffic-page">
      <div className="traffic-head">
        <div>
          <h1>Sinks</h1>
          <div className="sub">Events handled by sink interceptors, newest first; each opens its execution.</div>
        </div>
      </div>
      <div className="filter-bar" role="search" aria-label="Filter sink events">
        <span className={`chip${filter.interceptor ? ' active' : ''}`}>
          <span className="chip-label">Interceptor</span>
          <select aria-label="Interceptor" value={filter.interceptor ?? ''} onChange={(e) => set({ interceptor: e.target.value || undefined })}>
            <option value="">any</option>
            {interceptors.map((i) => (
              <option key={i}>{i}</option>
            ))}
          </select>
        </span>
        <span className={`chip${filter.event ? ' active' : ''}`}>
          <span className="chip-label">Event</span>
          <select aria-label="Event" value={filter.event ?? ''} onChange={(e) => set({ event: e.target.value || undefined })}>
            <option value="">any</option>
            {(facets.data?.events ?? []).map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </span>
        <span className={`chip${filter.phase ? ' active' : ''}`}>
          <span className="chip-label">Phase</span>
          <select aria-label="Phase" value={filter.phase ?? ''} onChange={(e) => set({ phase: (e.target.value || undefined) as SinkFilter['phase'] })}>
            <option value="">any</option>
            <option value="request">request</option>
            <option value="response">response</option>
          </select>
        </span>
        <span className={`chip${filter.recorded !== undefined ? ' active' : ''}`}>
          <span className="chip-label">Recorded</span>
          <select
            aria-label="Recorded"
            value={filter.recorded === undefined ? '' : filter.recorded ? 'yes' : 'no'}
            onChange={(e) => set({ recorded: e.target.value === '' ? undefined : e.target.value === 'yes' })}
          >
            <option value="">any</option>
            <option value="yes">recorded</option>
            <option value="no">not recorded</option>
          </select>
        </span>
        <span className={`chip${filter.gateway ? ' active' : ''}`}>
          <span className="chip-label">Gateway</span>
          <select aria-label="Gateway" value={filter.gateway ?? ''} onChange={(e) => set({ gateway: e.target.value || undefined })}>
            <option value="">any</option>
            {(facets.data?.gateways ?? []).map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </span>
        <span className={`chip${filter.since ? ' active' : ''}`}>
          <span className="chip-label">Time</span>
          <select
            aria-label="Time range"
            value={range}
            onChange={(e) => {
              const i = Number(e.target.value);
              setRange(i);
              const ms = RANGES[i]?.[1];
              set({ since: ms ? new Date(Date.now() - ms).toISOString() : undefined });
            }}
          >
            {RANGES.map(([label], i) => (
              <option key={label} value={i}>
                {label}
              </option>
            ))}
          </select>
        </span>
      </div>
      <ErrorBanner error={error} />
      <WindowedTable
        label="Sink events"
        className="sinks-table"
        headerClassName="srow"
        columns={COLUMNS}
        loading={loading}
        rowsLabel="Sink event rows"
        count={items.length}
        rowHeight={ROW}
        renderRow={renderRow}
        onRange={onRange}
        empty={<div className="table-empty">{loading ? 'Loading…' : 'No sink event matches this filter.'}</div>}
      />
    </div>
  );
}

function metrics(s: SinkEvent): string {
  return s.metrics
    ? Object.entries(s.metrics)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')
    : '';
}

function errorOf(s: SinkEvent): string {
  const e = s.error as { message?: string } | undefined;
  return e?.message ?? (e ? JSON.stringify(e) : '');
}
