// The ONE document the Chain screen edits: the config file's text. The canvas and the side panel edit it
// through `editRaw` (which re-serialises the parsed value the way the app writes config files); the JSON
// tab edits the text itself. Both push onto one undo history, so undo/redo works across them.
import { useCallback, useMemo, useReducer } from 'react';
import { parseGatewayConfigText, type ConfigError, type GatewayConfig } from '../../../../../shared/config';

/** How the app writes a config file (GatewayManager.writeConfig): 2-space JSON plus a trailing newline. */
export function serializeConfig(raw: unknown): string {
  return `${JSON.stringify(raw, null, 2)}\n`;
}

interface State {
  text: string;
  /** The text as last loaded from / saved to disk. */
  saved: string;
  past: string[];
  future: string[];
  /** Typing in the JSON tab coalesces into one undo step per pause. */
  lastTyping: number;
}

type Action =
  | { type: 'load'; text: string }
  | { type: 'edit'; text: string; typing: boolean; at: number }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'saved'; text: string };

const HISTORY_LIMIT = 200;
const TYPING_PAUSE_MS = 800;

function reduce(s: State, a: Action): State {
  switch (a.type) {
    case 'load':
      return { text: a.text, saved: a.text, past: [], future: [], lastTyping: 0 };
    case 'edit': {
      if (a.text === s.text) return s;
      const coalesce = a.typing && a.at - s.lastTyping < TYPING_PAUSE_MS && s.past.length > 0;
      const past = coalesce ? s.past : [...s.past, s.text].slice(-HISTORY_LIMIT);
      return { ...s, text: a.text, past, future: [], lastTyping: a.typing ? a.at : 0 };
    }
    case 'undo': {
      const prev = s.past[s.past.length - 1];
      if (prev === undefined) return s;
      return { ...s, text: prev, past: s.past.slice(0, -1), future: [s.text, ...s.future], lastTyping: 0 };
    }
    case 'redo': {
      const next = s.future[0];
      if (next === undefined) return s;
      return { ...s, text: next, past: [...s.past, s.text], future: s.future.slice(1), lastTyping: 0 };
    }
    case 'saved':
      // The server may have added the trailing newline: what is on disk is what the tab shows.
      return { ...s, text: a.text, saved: a.text, past: a.text === s.text ? s.past : [...s.past, s.text] };
  }
}

export interface ConfigDocument {
  text: string;
  /** The text as last loaded from or saved to disk. */
  saved: string;
  dirty: boolean;
  /** The parsed JSON value, when the text is syntactically valid JSON. */
  raw: Record<string, unknown> | undefined;
  /** The validated config, when the text passes the gateway config schema. */
  config: GatewayConfig | undefined;
  errors: ConfigError[];
  canUndo: boolean;
  canRedo: boolean;
  load(text: string): void;
  /** The JSON tab typed. */
  setText(text: string): void;
  /** A structured edit (canvas, side panel); ignored while the text is not valid JSON. */
  editRaw(change: (raw: Record<string, unknown>) => Record<string, unknown>): void;
  undo(): void;
  redo(): void;
  markSaved(text: string): void;
}

export function useConfigDocument(initial: string): ConfigDocument {
  const [state, dispatch] = useReducer(reduce, { text: initial, saved: initial, past: [], future: [], lastTyping: 0 });
  const parsed = useMemo(() => {
    let raw: Record<string, unknown> | undefined;
    try {
      const v = JSON.parse(state.text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>;
    } catch {
      raw = undefined;
    }
    const result = parseGatewayConfigText(state.text);
    return { raw, config: result.ok ? result.config : undefined, errors: result.ok ? [] : result.errors };
  }, [state.text]);

  const editRaw = useCallback(
    (change: (raw: Record<string, unknown>) => Record<string, unknown>) => {
      if (!parsed.raw) return;
      dispatch({ type: 'edit', text: serializeConfig(change(structuredClone(parsed.raw))), typing: false, at: Date.now() });
    },
    [parsed.raw],
  );

  return {
    text: state.text,
    saved: state.saved,
    dirty: state.text !== state.saved,
    raw: parsed.raw,
    config: parsed.config,
    errors: parsed.errors,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
    load: useCallback((text: string) => dispatch({ type: 'load', text }), []),
    setText: useCallback((text: string) => dispatch({ type: 'edit', text, typing: true, at: Date.now() }), []),
    editRaw,
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    markSaved: useCallback((text: string) => dispatch({ type: 'saved', text }), []),
  };
}
