// NOTE (playground engineer): minimal structural diff view written for the Playground because none
// existed yet; the traffic engineer owns components/diff/ and may extend or restyle it freely.
// Renders diffJson(before, after): one row per change at its JSON path, strings with word-level marks.
import { diffJson, formatPath, type JsonChange } from './json-diff';
import './diff.css';

export function JsonDiff({ before, after, label = 'Changes' }: { before: unknown; after: unknown; label?: string }) {
  const changes = diffJson(before, after);
  if (changes.length === 0) return <div className="json-diff empty-diff">No changes.</div>;
  return (
    <ul className="json-diff" aria-label={label}>
      {changes.map((c, i) => (
        <li key={i} className={`diff-row ${c.kind}`}>
          <code className="diff-path">{formatPath(c.path)}</code>
          <span className={`diff-kind ${c.kind}`}>{c.kind}</span>
          <ChangeBody change={c} />
        </li>
      ))}
    </ul>
  );
}

function ChangeBody({ change }: { change: JsonChange }) {
  if (change.kind === 'added') return <code className="diff-after">{show(change.after)}</code>;
  if (change.kind === 'removed') return <code className="diff-before">{show(change.before)}</code>;
  if (change.text) {
    return (
      <code className="diff-text">
        {change.text.map((p, i) =>
          p.kind === 'same' ? <span key={i}>{p.text}</span> : p.kind === 'removed' ? <del key={i}>{p.text}</del> : <ins key={i}>{p.text}</ins>,
        )}
      </code>
    );
  }
  return (
    <span className="diff-pair">
      <code className="diff-before">{show(change.before)}</code> → <code className="diff-after">{show(change.after)}</code>
    </span>
  );
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 400 ? `${s.slice(0, 400)}…` : s;
}
