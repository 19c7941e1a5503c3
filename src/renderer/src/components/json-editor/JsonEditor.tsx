// A JSON editor on CodeMirror 6: syntax highlighting, folding, live parse errors (lint), and a
// highlighted JSON path (a validation message's `$.arguments` marks that field and scrolls to it).
// Controlled: `value` is the text; edits call onChange. Shared by the Playground, Chain and Traffic.
import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorView, Decoration, type DecorationSet } from '@codemirror/view';
import { Annotation, EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { locateJsonPath, parseJsonPath } from './json-path';
import { styleNonce } from '../../api/web-token';

export interface JsonEditorProps {
  value: string;
  onChange?(text: string): void;
  /** Accessible name of the editing area. */
  label: string;
  /** A JSON path such as `$.arguments` to highlight (undefined: none). */
  highlightPath?: string;
  readOnly?: boolean;
  /** CSS height of the editor, e.g. "320px" (default: grows with the content up to 480px). */
  height?: string;
}

/**
 * Marks the transaction that copies a new `value` prop into the editor: it is not an edit, so it does
 * not call onChange (otherwise loading a template would read as the user's edit, e.g. "(edited)").
 */
const fromProps = Annotation.define<boolean>();

const setHighlight = StateEffect.define<{ from: number; to: number } | null>();
const highlightMark = Decoration.mark({ class: 'cm-json-highlight' });

const highlightField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    let next = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setHighlight)) next = e.value && e.value.to > e.value.from ? Decoration.set([highlightMark.range(e.value.from, e.value.to)]) : Decoration.none;
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  '&': { fontSize: '12px', backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border-strong)', borderRadius: '6px' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--text-3)', border: 'none', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--surface-2)' },
  '.cm-json-highlight': { backgroundColor: 'var(--warn-soft)', outline: '1px solid var(--warn)', borderRadius: '2px' },
  '.cm-scroller': { overflow: 'auto' },
});

/** Token colours from the app's theme variables, so the editor reads well in light and dark. */
const jsonHighlight = HighlightStyle.define([
  { tag: t.propertyName, color: 'var(--accent)' },
  { tag: t.string, color: 'var(--ok)' },
  { tag: t.number, color: 'var(--warn)' },
  { tag: [t.bool, t.null], color: 'var(--err)' },
  { tag: [t.brace, t.squareBracket, t.separator, t.punctuation], color: 'var(--text-2)' },
  { tag: t.invalid, color: 'var(--err)', textDecoration: 'underline wavy' },
]);

export function JsonEditor(props: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    const extensions: Extension[] = [
      basicSetup,
      json(),
      syntaxHighlighting(jsonHighlight),
      linter(jsonParseLinter(), { delay: 250 }),
      lintGutter(),
      highlightField,
      theme,
      // CodeMirror writes its styles into a <style> element: web mode's CSP admits it by this page's nonce.
      EditorView.cspNonce.of(styleNonce()),
      EditorView.contentAttributes.of({ 'aria-label': props.label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((tr) => tr.annotation(fromProps))) onChange.current?.(u.state.doc.toString());
      }),
      EditorState.readOnly.of(Boolean(props.readOnly)),
      EditorView.theme({ '&': props.height ? { height: props.height } : { maxHeight: '480px' } }),
    ];
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: props.value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once per mode; value and highlight are synchronised by the effects below.
  }, [props.readOnly, props.label, props.height]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current !== props.value) v.dispatch({ changes: { from: 0, to: current.length, insert: props.value }, annotations: fromProps.of(true) });
  }, [props.value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const segments = props.highlightPath ? parseJsonPath(props.highlightPath) : undefined;
    const range = segments ? locateJsonPath(v.state.doc.toString(), segments) : undefined;
    v.dispatch({
      effects: [setHighlight.of(range ?? null), ...(range ? [EditorView.scrollIntoView(range.from, { y: 'center' })] : [])],
    });
  }, [props.highlightPath, props.value]);

  return <div className="json-editor" ref={host} data-highlight={props.highlightPath ?? ''} />;
}

/** Parses editor text: the value, or the parse error message to show. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!text.trim()) return { ok: false, error: 'The payload is empty: enter a JSON value.' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
}
