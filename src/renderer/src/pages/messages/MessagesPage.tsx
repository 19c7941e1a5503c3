// Messages: every JSON-RPC message a gateway saw and sent, on each side (client ↔ gateway, gateway ↔
// backend, gateway ↔ interceptor servers), live and recorded. Pick a gateway and a session; the list is
// newest first (new messages appear on top, as in Traffic) and filtered by the store; a message opens
// beside it with its JSON, its execution and Replay. Keys: `/` search, `j`/`k` move, Esc closes the detail.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MessageFilter } from '../../../../shared/api/models-messages';
import { useApiQuery } from '../../api/context';
import { pickGateway, useSelectedGateway } from '../../app/app-state';
import { ErrorBanner } from '../../components/ErrorBanner';
import type { VirtualListHandle } from '../../components/VirtualList';
import { clockTime } from '../traffic/format';
import { MessageDetail } from './MessageDetail';
import { MessageFilterBar } from './MessageFilterBar';
import { MessageTable } from './MessageTable';
import { parseMethodFilter } from './method-filter';
import { navigateMessages, useMessagesRoute } from './route';
import { useMessageList } from './use-message-list';
import '../traffic/traffic.css';
import './messages.css';

type Editable = Pick<MessageFilter, 'side' | 'direction' | 'kind' | 'method' | 'search' | 'healthPings'>;

export function MessagesPage() {
  const route = useMessagesRoute();
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  // The address's gateway, else the app-wide one (the same as Chain's, Playground's and Paused's).
  const [chosen, select] = useSelectedGateway();
  const gateway = route.gateway ?? pickGateway(gateways.data ?? [], chosen)?.id;
  useEffect(() => {
    if (route.gateway && gateways.data?.some((g) => g.id === route.gateway)) select(route.gateway);
  }, [route.gateway, gateways.data, select]);
  const [edit, setEdit] = useState<Editable>({});
  const [paused, setPaused] = useState(false);
  const [cursor, setCursor] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const table = useRef<VirtualListHandle>(null);

  // Dated without health pings unless they are shown, as the list below.
  const sessions = useApiQuery('messages.sessions', { gateway: gateway ?? '', healthPings: edit.healthPings === true }, ['messages', 'sessions'], {
    enabled: Boolean(gateway),
  });
  const methods = useApiQuery('messages.methods', { gateway: gateway ?? '' }, ['messages'], { enabled: Boolean(gateway) });
  // The Method field's text may name methods to leave out (`-ping`): the store gets method and excludeMethods.
  const filter = useMemo<MessageFilter | undefined>(() => {
    if (!gateway) return undefined;
    const { method, ...rest } = edit;
    return {
      gateway,
      ...(route.session !== undefined ? { session: route.session } : {}),
      ...(route.execution ? { executionId: route.execution } : {}),
      ...rest,
      ...parseMethodFilter(method),
    };
  }, [gateway, route.session, route.execution, edit]);
  const onPrepend = useCallback((rows: number) => {
    table.current?.shiftBy(rows);
    setCursor((c) => c + rows);
  }, []);
  const list = useMessageList(filter, paused, onPrepend);
  const { items, hasMore, loadMore } = list;
  const onRange = useCallback((_f: number, last: number) => last >= items.length - 40 && hasMore && loadMore(), [items.length, hasMore, loadMore]);
  const open = useCallback(
    (i: number) => {
      setCursor(i);
      setOpenId(items[i]?.id);
    },
    [items],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest('input, textarea, select, [contenteditable="true"]') || document.querySelector('dialog[open]')) return;
      if (e.key === '/') {
        e.preventDefault();
        document.querySelector<HTMLInputElement>('input[aria-label="Search messages"]')?.focus();
      } else if (e.key === 'j' || e.key === 'k') {
        const next = Math.max(0, Math.min(items.length - 1, cursor + (e.key === 'j' ? 1 : -1)));
        table.current?.scrollToIndex(next);
        open(next);
      } else if (e.key === 'Escape') setOpenId(undefined);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items.length, cursor, open]);

  return (
    <div className="traffic-page messages-page">
      <div className="traffic-head">
        <div>
          <h1>Messages</h1>
          <div className="sub">Every JSON-RPC message on each side of a gateway, newest first</div>
        </div>
        <div className="actions">
          <label className="inline">
            Gateway{' '}
            <select
              aria-label="Gateway"
              value={gateway ?? ''}
              onChange={(e) => {
                setOpenId(undefined);
                select(e.target.value);
                navigateMessages({ gateway: e.target.value });
              }}
            >
              {[...new Set([...(gateways.data ?? []).map((g) => g.id), ...(gateway ? [gateway] : [])])].map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={paused ? 'live-toggle paused' : 'live-toggle'} aria-pressed={paused} onClick={() => setPaused(!paused)}>
            <span className="live-dot" />
            {paused ? `Paused${list.pending > 0 ? ` · ${list.pending} new` : ''} — resume` : 'Live'}
          </button>
        </div>
      </div>
      <ErrorBanner error={gateways.error ?? sessions.error ?? list.error} />
      <div className={`messages-split${openId ? ' with-detail' : ''}`}>
        <nav className="msg-sessions" aria-label="Sessions">
          <SessionLink gateway={gateway} session={undefined} current={route.session} label="All sessions" />
          {(sessions.data ?? []).map((s) => (
            <SessionLink
              key={s.sessionId ?? '-'}
              gateway={gateway}
              session={s.sessionId}
              current={route.session}
              label={s.sessionId === null ? 'Gateway (no session)' : (s.clientName ?? 'client')}
              sub={`${s.sessionId ? `${s.sessionId.slice(0, 8)} · ` : ''}${clockTime(s.lastAt)}`}
            />
          ))}
          {sessions.data?.length === 0 && <p className="muted small-note">No messages recorded for this gateway yet.</p>}
        </nav>
        <div className="messages-main">
          {route.execution && (
            <div className="filter-bar">
              <span className="chip active">
                <span className="chip-label">Execution</span>
                <span className="mono">{route.execution}</span>
                <button type="button" className="chip-clear" aria-label="Clear execution filter" onClick={() => navigateMessages({ gateway })}>
                  ×
                </button>
              </span>
            </div>
          )}
          <MessageFilterBar
            filter={edit}
            methods={methods.data}
            onChange={(f) => {
              setEdit(f);
              setCursor(0);
            }}
          />
          <MessageTable
            ref={table}
            items={items}
            cursor={cursor}
            openId={openId}
            loading={list.loading}
            onOpen={open}
            onRange={onRange}
            empty={
              <div className="table-empty">
                {list.loading ? 'Loading…' : list.hasMore ? 'Searching older messages…' : gateway ? 'No recorded message matches.' : 'No gateway yet.'}
              </div>
            }
          />
        </div>
        {openId && <MessageDetail id={openId} onClose={() => setOpenId(undefined)} />}
      </div>
    </div>
  );
}

function SessionLink(p: { gateway: string | undefined; session: string | null | undefined; current: string | null | undefined; label: string; sub?: string }) {
  const active = p.session === p.current;
  return (
    <button
      type="button"
      className={`msg-session${active ? ' active' : ''}`}
      aria-current={active ? 'true' : undefined}
      data-session={p.session === undefined ? 'all' : (p.session ?? '-')}
      onClick={() => p.gateway && navigateMessages({ gateway: p.gateway, session: p.session })}
    >
      <span className="msg-session-label">{p.label}</span>
      {p.sub && <span className="msg-session-sub mono">{p.sub}</span>}
    </button>
  );
}
