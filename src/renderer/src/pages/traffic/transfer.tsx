// Export downloads and JSONL import for the Traffic screen.
import { useRef, useState } from 'react';
import { useApi } from '../../api/context';

/** Saves text as a file (a download in the browser; Electron's download handling in the app). */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Picks a JSONL export and imports it (all or nothing: a bad line is reported with its number). */
export function ImportButton({ onImported, onError }: { onImported(count: number): void; onError(error: unknown): void }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button type="button" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? 'Importing…' : 'Import…'}
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.ndjson,.json,application/x-ndjson"
        aria-label="Import executions from a JSONL file"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setBusy(true);
          onError(null);
          file
            .text()
            .then((jsonl) => api.call('history.import', { jsonl }))
            .then((r) => onImported(r.imported), onError)
            .finally(() => setBusy(false));
        }}
      />
    </>
  );
}
