// The JSON tab: the config file itself, the same document the canvas edits. Validated live with the
// gateway config schema (src/shared/config) and, for overrides, by the chain engine (hook widening);
// each error names its JSON path, and clicking it highlights that spot in the editor.
import { useState } from 'react';
import { JsonEditor } from '../../components/json-editor/JsonEditor';
import type { ConfigError } from '../../../../shared/config';
import type { OverrideIssue } from '../../../../shared/api/models-chain';

interface Props {
  text: string;
  onChange(text: string): void;
  errors: ConfigError[];
  issues: OverrideIssue[];
  configPath: string;
}

/** `overrides["a/b"].mode` (config error path) → `$.overrides["a/b"].mode` (editor highlight path). */
export function toEditorPath(path: string): string {
  if (path === '(root)' || path === '') return '$';
  return path.startsWith('[') ? `$${path}` : `$.${path}`;
}

export function JsonTab(p: Props) {
  const [highlight, setHighlight] = useState<string>();
  const problems: { path: string; message: string; severity: 'error' | 'warning' }[] = [
    ...p.errors.map((e) => ({ path: e.path, message: e.message, severity: 'error' as const })),
    ...p.issues.map((i) => ({ path: i.configPath, message: i.message, severity: i.severity })),
  ];
  const errorCount = problems.filter((x) => x.severity === 'error').length;
  return (
    <div className="chain-json">
      <div className="chain-json-head">
        <span className="muted">
          The config file <code>{p.configPath}</code>. Save writes exactly this text.
        </span>
        <span className={`json-state ${errorCount ? 'bad' : 'good'}`} data-testid="json-state">
          {errorCount ? `${errorCount} error${errorCount > 1 ? 's' : ''}` : 'valid'}
        </span>
      </div>
      <JsonEditor label="Gateway config (JSON)" value={p.text} onChange={p.onChange} height="calc(100vh - 260px)" highlightPath={highlight} />
      {problems.length > 0 && (
        <ul className="json-problems" aria-label="Config problems" data-testid="json-problems">
          {problems.map((x, i) => (
            <li key={i} className={x.severity}>
              <button type="button" className="link" onClick={() => setHighlight(toEditorPath(x.path))} title="Show in the editor">
                <code>{x.path}</code>
              </button>{' '}
              {x.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
