// The Chain screen's toolbar: what to look at (event, phase, protocol version), how (canvas or JSON), and the
// document actions (undo, redo, save) with the save/reload status.
import { useState } from 'react';
import type { ChainSaveResult } from '../../../../shared/api/models-chain';
import type { Phase } from './useChainData';
import { timeOfDay } from '../../time-format';

export const EVENTS = [
  'tools/call',
  'tools/list',
  'prompts/get',
  'prompts/list',
  'resources/read',
  'resources/list',
  'resources/subscribe',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'llm/completion',
];
const PROTOCOLS = ['2025-06-18', '2025-11-25', '2026-07-28'];

interface Props {
  event: string;
  onEvent(e: string): void;
  phase: Phase;
  onPhase(p: Phase): void;
  protocolVersion: string;
  onProtocolVersion(v: string): void;
  tab: 'canvas' | 'json';
  onTab(t: 'canvas' | 'json'): void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
  dirty: boolean;
  valid: boolean;
  saving: boolean;
  onSave(): void;
  status: string;
  saved: ChainSaveResult | undefined;
  savedAt: number | undefined;
  ordering: boolean;
}

export function Toolbar(p: Props) {
  const [custom, setCustom] = useState(!EVENTS.includes(p.event));
  // Shown on one line, cut with an ellipsis when the toolbar is short of room; the title has all of it.
  const status = `${p.ordering ? 'Ordering… ' : ''}${p.dirty ? 'Unsaved changes' : p.saved ? savedText(p.saved, p.savedAt) : 'Saved'}`;
  return (
    <div className="chain-toolbar">
      <label className="inline">
        Event
        {custom ? (
          <input
            type="text"
            aria-label="Event"
            defaultValue={p.event}
            placeholder="namespace/operation"
            onKeyDown={(e) => {
              if (e.key === 'Enter' && e.currentTarget.value.trim()) p.onEvent(e.currentTarget.value.trim());
              if (e.key === 'Escape') setCustom(false);
            }}
            onBlur={(e) => e.currentTarget.value.trim() && p.onEvent(e.currentTarget.value.trim())}
          />
        ) : (
          <select aria-label="Event" value={p.event} onChange={(e) => (e.target.value === '__custom' ? setCustom(true) : p.onEvent(e.target.value))}>
            {EVENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
            <option value="__custom">other…</option>
          </select>
        )}
      </label>
      <div className="segmented" role="radiogroup" aria-label="Phase">
        {(['request', 'response'] as const).map((ph) => (
          <button key={ph} type="button" role="radio" aria-checked={p.phase === ph} onClick={() => p.onPhase(ph)}>
            {ph === 'request' ? 'Request' : 'Response'}
          </button>
        ))}
      </div>
      <label className="inline" title="Interceptors that declare they do not support the chosen protocol version are skipped">
        Protocol
        <select aria-label="Protocol version" value={p.protocolVersion} onChange={(e) => p.onProtocolVersion(e.target.value)}>
          <option value="">any</option>
          {PROTOCOLS.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </label>
      <div className="tabs inline-tabs" role="tablist" aria-label="View">
        <button type="button" role="tab" aria-selected={p.tab === 'canvas'} onClick={() => p.onTab('canvas')}>
          Canvas
        </button>
        <button type="button" role="tab" aria-selected={p.tab === 'json'} onClick={() => p.onTab('json')}>
          JSON
        </button>
      </div>
      <div className="spacer" />
      <span className="save-status muted" data-testid="save-status" aria-live="polite" title={status}>
        {status}
      </span>
      <button type="button" className="ghost small" onClick={p.onUndo} disabled={!p.canUndo} title="Undo (Ctrl+Z)">
        Undo
      </button>
      <button type="button" className="ghost small" onClick={p.onRedo} disabled={!p.canRedo} title="Redo (Ctrl+Shift+Z)">
        Redo
      </button>
      <button
        type="button"
        className="primary"
        onClick={p.onSave}
        disabled={!p.dirty || !p.valid || p.saving}
        title={
          !p.valid
            ? 'Fix the errors in the JSON tab first'
            : p.status === 'running'
              ? 'Write the file; the running gateway hot-reloads it'
              : 'Write the config file'
        }
      >
        {p.saving ? 'Saving…' : 'Save'}
      </button>
    </div>
  );
}

function savedText(s: ChainSaveResult, savedAt: number | undefined): string {
  const at = timeOfDay(savedAt ?? Date.now());
  if (!s.reload) return `Saved ${at}`;
  return s.reload.restarted ? `Saved ${at} · gateway restarted (backend or listener changed)` : `Saved ${at} · hot-reloaded, sessions kept`;
}
