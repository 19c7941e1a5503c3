// Traffic: live and recorded executions in one windowed table, newest first, filtered by the store; the
// detail of one execution beside it; replay, edit & replay, compare, bulk replay, export and import.
// Keys: `/` filter, `j`/`k` move, Enter opens, `r` replays, Esc closes the detail.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryFilter } from '../../../../shared/api/models';
import type { BulkJob, ReplayMode } from '../../../../shared/api/models-traffic';
import { useApi, useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import type { VirtualListHandle } from '../../components/VirtualList';
import { BulkReplayDialog } from './BulkReplayDialog';
import { SaveTestCaseDialog } from './SaveTestCaseDialog';
import type { ExecutionDetailData } from './detail/sections';
import { count } from './format';
import { FilterBar } from './list/FilterBar';
import { TrafficTable } from './list/TrafficTable';
import { useTrafficList } from './list/use-traffic-list';
import { navigate, useTrafficRoute } from './route';
import { downloadText, ImportButton } from './transfer';
import './traffic.css';

// The JSON editor (CodeMirror) loads when Edit & replay is first opened, not with the table; the detail
// (waterfall, diffs) and the comparison when first shown: the first rows need only the table's code.
const EditReplayDialog = lazy(() => import('./detail/EditReplayDialog').then((m) => ({ default: m.EditReplayDialog })));
const ExecutionDetail = lazy(() => import('./detail/ExecutionDetail').then((m) => ({ default: m.ExecutionDetail })));
const CompareView = lazy(() => import('./compare/CompareView').then((m) => ({ default: m.CompareView })));

export function TrafficPage() {
  const api = useApi();
  const route = useTrafficRoute();
  const [filter, setFilter] = useState<HistoryFilter>({});
  const [paused, setPaused] = useState(false);
  const [cursor, setCursor] = useState(0);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [marked, setMarked] = useState<string>();
  const [editing, setEditing] = useState<ExecutionDetailData>();
  const [bulkOpen, setBulkOpen] = useState(false);
  const [saving, setSaving] = useState<{ ids: string[]; gatewayName?: string }>();
  const [bulkJob, setBulkJob] = useState<BulkJob>();
  const [replay, setReplay] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const [notice, setNotice] = useState<string>();
  const [transferError, setTransferError] = useState<unknown>(null);
  const table = useRef<VirtualListHandle>(null);
  const search = useRef<HTMLInputElement>(null);

  const onPrepend = useCallback((rows: number) => {
    table.current?.shiftBy(rows);
    setCursor((c) => c + rows);
  }, []);
  const list = useTrafficList(filter, paused, onPrepend);
  const items = list.items;
  // Asked after the first page, never before it: on a million rows the first rows come first.
  const [firstPage, setFirstPage] = useState(false);
  if (!firstPage && !list.loading) setFirstPage(true);
  const facets = useApiQuery('history.facets', undefined, ['executions', 'gateways'], { enabled: firstPage });
  const matching = useApiQuery('history.count', { filter }, ['executions'], { enabled: !list.loading });
  const selected = route.view === 'list' ? route.selected : undefined;

  // The row of the execution opened by a link follows the cursor.
  useEffect(() => {
    if (!selected) return;
    const i = items.findIndex((r) => r.id === selected);
    if (i >= 0) setCursor(i);
  }, [selected, items]);

  const open = useCallback((i: number) => items[i] && navigate({ view: 'list', selected: items[i]!.id }), [items]);
  const openId = useCallback((id: string) => navigate({ view: 'list', selected: id }), []);
  const changeFilter = useCallback((f: HistoryFilter) => {
    setFilter(f);
    setCursor(0);
  }, []);
  const { hasMore, loadMore } = list;
  const onRange = useCallback(
    (_first: number, last: number) => {
      if (last >= items.length - 40 && hasMore) loadMore();
    },
    [items.length, hasMore, loadMore],
  );
  const toggle = useCallback((id: string) => {
    setChecked((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  const runReplay = useCallback(
    (id: string, mode: ReplayMode, params?: unknown) => {
      setReplay({ busy: true, error: null });
      api.call('replay.run', { executionId: id, mode, ...(params !== undefined ? { params } : {}) }).then(
        (r) => {
          setReplay({ busy: false, error: null });
          setEditing(undefined);
          navigate({ view: 'list', selected: r.id });
        },
        (error: unknown) => setReplay({ busy: false, error }),
      );
    },
    [api],
  );

  const exportIds = useCallback(
    (ids: string[] | undefined) => {
      setTransferError(null);
      api.call('history.export', ids ? { filter, ids } : { filter }).then((r) => {
        downloadText(`executions-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`, r.jsonl);
        setNotice(`Exported ${r.count} execution${r.count === 1 ? '' : 's'}.`);
      }, setTransferError);
    },
    [api, filter],
  );

  // Keyboard: only when no field has focus and no dialog is open.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.closest('input, textarea, select, [contenteditable="true"]') || t.closest('dialog'))) return;
      if (document.querySelector('dialog[open]') || route.view !== 'list') return;
      const move = (to: number) => {
        const next = Math.max(0, Math.min(items.length - 1, to));
        setCursor(next);
        table.current?.scrollToIndex(next);
      };
      if (e.key === '/') {
        e.preventDefault();
        search.current?.focus();
      } else if (e.key === 'j') move(cursor + 1);
      else if (e.key === 'k') move(cursor - 1);
      else if (e.key === 'Enter') open(cursor);
      else if (e.key === 'r' && items[cursor]) runReplay(items[cursor]!.id, 'backend');
      else if (e.key === 'Escape' && selected) navigate({ view: 'list' });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [cursor, items, open, route.view, runReplay, selected]);

  if (route.view === 'compare') {
    return (
      <div className="traffic-page">
        <Suspense fallback={null}>
          <CompareView a={route.a} b={route.b} onBack={() => history.back()} />
        </Suspense>
      </div>
    );
  }

  const total = matching.data;
  return (
    <div className="traffic-page">
      <div className="traffic-head">
        <div>
          <h1>Traffic</h1>
          <div className="sub" aria-live="polite" aria-label="Matching executions">
            {total
              ? `${count(total.count, total.capped)} execution${total.count === 1 && !total.capped ? '' : 's'}`
              : list.loading
                ? 'Loading…'
                : `${items.length} shown`}
            {items.length > 0 && total && ` · ${count(items.length)} loaded`}
          </div>
        </div>
        <div className="actions">
          <button type="button" className={paused ? 'live-toggle paused' : 'live-toggle'} aria-pressed={paused} onClick={() => setPaused(!paused)}>
            <span className="live-dot" />
            {paused ? `Paused${list.pending > 0 ? ` · ${list.pending} new` : ''} — resume` : 'Live'}
          </button>
          <button type="button" onClick={() => setBulkOpen(true)}>
            Bulk replay…
          </button>
          {checked.size > 0 ? (
            <>
              <button type="button" onClick={() => exportIds([...checked])}>
                Export {checked.size} selected
              </button>
              <button type="button" onClick={() => setSaving({ ids: [...checked], gatewayName: items.find((r) => checked.has(r.id))?.gateway })}>
                Save {checked.size} as test case{checked.size === 1 ? '' : 's'}…
              </button>
              <button type="button" className="ghost" onClick={() => setChecked(new Set())}>
                Clear selection
              </button>
            </>
          ) : (
            <button type="button" onClick={() => exportIds(undefined)} title="Export every execution matching the filter as JSONL">
              Export filter
            </button>
          )}
          <ImportButton
            onImported={(n) => {
              setNotice(`Imported ${n} execution${n === 1 ? '' : 's'}.`);
              list.reload();
            }}
            onError={setTransferError}
          />
        </div>
      </div>
      <FilterBar ref={search} filter={filter} facets={facets.data} onChange={changeFilter} />
      {notice && (
        <div className="banner info notice" role="status">
          {notice}{' '}
          <button type="button" className="ghost small" onClick={() => setNotice(undefined)}>
            Dismiss
          </button>
        </div>
      )}
      <ErrorBanner error={list.error ?? transferError} />
      <div className={`traffic-split${selected ? ' with-detail' : ''}`}>
        <TrafficTable
          ref={table}
          items={items}
          cursor={cursor}
          openId={selected}
          checked={checked}
          loading={list.loading}
          onCursor={setCursor}
          onOpen={openId}
          onToggle={toggle}
          onRange={onRange}
          empty={<EmptyTable loading={list.loading} filtered={Object.keys(filter).length > 0} />}
        />
        {selected && (
          <Suspense fallback={<div className="detail-pane" aria-busy="true" />}>
            <ExecutionDetail
              id={selected}
              onClose={() => navigate({ view: 'list' })}
              actions={{
                replay: (id, mode) => runReplay(id, mode),
                editReplay: setEditing,
                compare: (a, b) => navigate({ view: 'compare', a, b }),
                exportIds: (ids) => exportIds(ids),
                saveAsTest: (id, gatewayName) => setSaving({ ids: [id], gatewayName }),
                busy: replay.busy,
                error: replay.error,
                marked,
                mark: setMarked,
              }}
            />
          </Suspense>
        )}
      </div>
      {editing && (
        <Suspense fallback={null}>
          <EditReplayDialog execution={editing} busy={replay.busy} onReplay={runReplay} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
      {saving && (
        <SaveTestCaseDialog
          ids={saving.ids}
          {...(saving.gatewayName ? { gatewayName: saving.gatewayName } : {})}
          onClose={() => setSaving(undefined)}
          onSaved={(message) => {
            setSaving(undefined);
            setNotice(`${message} Run it on the Tests screen.`);
          }}
        />
      )}
      <BulkReplayDialog
        open={bulkOpen}
        filter={filter}
        matching={total}
        job={bulkJob}
        onJob={setBulkJob}
        onCompare={(a, b) => {
          setBulkOpen(false);
          navigate({ view: 'compare', a, b });
        }}
        onClose={() => setBulkOpen(false)}
      />
    </div>
  );
}

function EmptyTable({ loading, filtered }: { loading: boolean; filtered: boolean }) {
  if (loading) return <div className="table-empty">Loading…</div>;
  return (
    <div className="table-empty">
      {filtered
        ? 'No recorded execution matches this filter.'
        : 'No traffic recorded yet. Send a call through a gateway (Playground → Client, or any MCP client) and it appears here live.'}
    </div>
  );
}
