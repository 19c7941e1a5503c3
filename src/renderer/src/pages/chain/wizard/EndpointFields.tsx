// The fields of one endpoint (a backend or an interceptor server): a command to launch, or a URL. A command
// line pasted into the Command or Arguments field is split into words (the CLI's shell-words parser), since
// a line such as `-y @scope/server --port 3` passed as one argument fails in ways that are hard to read.
// A command line typed into Command is split the same way when it is spawned (entries.ts commandWords),
// and the field says how.
import type { ClipboardEvent } from 'react';
import { quoteCommandLine } from '../../../../../shared/shell/shell-words';
import { argumentLines, commandLineWords, commandWords, type EndpointDraft } from './entries';

interface Props {
  value: EndpointDraft;
  onChange(next: EndpointDraft): void;
  /** Backends may also be reached over SSE; interceptor servers only over stdio or Streamable HTTP. */
  allowSse: boolean;
  idPrefix: string;
}

export function EndpointFields({ value: d, onChange, allowSse, idPrefix }: Props) {
  const set = (patch: Partial<EndpointDraft>) => onChange({ ...d, ...patch });
  /** A pasted `cmd arg…` line: the command, and its words as arguments (after any already there). */
  const pasteCommand = (e: ClipboardEvent<HTMLInputElement>) => {
    const words = commandLineWords(e.clipboardData.getData('text'));
    if (!words || words.length < 2 || e.currentTarget.value.trim() !== '') return;
    e.preventDefault();
    set({ command: words[0]!, args: [...argumentLines(d.args), ...words.slice(1)].join('\n') });
  };
  /** A pasted line of several words: one argument per word, inserted where the cursor is. */
  const pasteArgs = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const text = e.clipboardData.getData('text');
    // Several lines are arguments one per line already: pasted as they are.
    const words = text.trim().includes('\n') ? undefined : commandLineWords(text);
    if (!words || words.length < 2) return;
    e.preventDefault();
    const el = e.currentTarget;
    const before = el.value.slice(0, el.selectionStart);
    const after = el.value.slice(el.selectionEnd);
    const glue = (s: string, atStart: boolean) => (s === '' || (atStart ? s.endsWith('\n') : s.startsWith('\n')) ? '' : '\n');
    set({ args: `${before}${glue(before, true)}${words.join('\n')}${glue(after, false)}${after}` });
  };
  const typedCommand = commandWords(d.command);
  const spaced = d.kind === 'command' ? argumentLines(d.args).filter((l) => /\s/.test(l) && (commandLineWords(l)?.length ?? 0) > 1) : [];
  return (
    <div className="endpoint-fields">
      <div className="row">
        <label className="field grow">
          Name
          <input type="text" aria-label={`${idPrefix} name`} value={d.name} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <div className="segmented" role="radiogroup" aria-label={`${idPrefix} kind`}>
          <button type="button" role="radio" aria-checked={d.kind === 'command'} onClick={() => set({ kind: 'command' })}>
            Command
          </button>
          <button type="button" role="radio" aria-checked={d.kind === 'url'} onClick={() => set({ kind: 'url' })}>
            URL
          </button>
        </div>
      </div>
      {d.kind === 'command' ? (
        <>
          <label className="field">
            Command
            <input
              type="text"
              aria-label={`${idPrefix} command`}
              className="mono"
              placeholder="npx, node, uvx, /usr/local/bin/my-server…"
              value={d.command}
              onPaste={pasteCommand}
              onChange={(e) => set({ command: e.target.value })}
            />
            {typedCommand.leadingArgs.length > 0 && (
              <span className="hint" aria-label={`Run as (${idPrefix})`}>
                runs <code>{typedCommand.program}</code> with <code>{quoteCommandLine(typedCommand.leadingArgs)}</code> before the arguments below
              </span>
            )}
          </label>
          <label className="field">
            Arguments <span className="hint">one per line; a pasted command line is split into words</span>
            <textarea aria-label={`${idPrefix} arguments`} rows={3} value={d.args} onPaste={pasteArgs} onChange={(e) => set({ args: e.target.value })} />
          </label>
          {spaced.length > 0 && (
            <div className="banner info" role="note" aria-label={`Arguments with spaces (${idPrefix})`}>
              {spaced.length === 1 ? 'A line holds' : `${spaced.length} lines hold`} several words, each line is passed as one argument (
              <code>{spaced[0]}</code>).{' '}
              <button
                type="button"
                className="small"
                onClick={() =>
                  set({
                    args: argumentLines(d.args)
                      .flatMap((l) => (spaced.includes(l) ? commandLineWords(l)! : [l]))
                      .join('\n'),
                  })
                }
              >
                Split into words
              </button>
            </div>
          )}
          <details>
            <summary className="muted">Environment and working directory</summary>
            <div className="row">
              <label className="field grow">
                Environment <span className="hint">NAME=value per line</span>
                <textarea aria-label={`${idPrefix} environment`} rows={2} value={d.env} onChange={(e) => set({ env: e.target.value })} />
              </label>
              <label className="field grow">
                Working directory
                <input type="text" aria-label={`${idPrefix} working directory`} value={d.cwd} onChange={(e) => set({ cwd: e.target.value })} />
              </label>
            </div>
          </details>
        </>
      ) : (
        <>
          <div className="row">
            <label className="field grow">
              URL
              <input
                type="text"
                className="mono"
                aria-label={`${idPrefix} URL`}
                placeholder="http://localhost:3001/mcp"
                value={d.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            </label>
            {allowSse && (
              <label className="field">
                Transport
                <select aria-label={`${idPrefix} transport`} value={d.urlTransport} onChange={(e) => set({ urlTransport: e.target.value as 'http' | 'sse' })}>
                  <option value="http">Streamable HTTP</option>
                  <option value="sse">SSE (legacy)</option>
                </select>
              </label>
            )}
          </div>
          <label className="field">
            Headers <span className="hint">Header: value per line</span>
            <textarea aria-label={`${idPrefix} headers`} rows={2} value={d.headers} onChange={(e) => set({ headers: e.target.value })} />
          </label>
        </>
      )}
    </div>
  );
}
