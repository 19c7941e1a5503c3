// A free-text filter chip with suggestions from the recorded data (targets, interceptors): a combobox whose
// listbox shows the values containing what is typed, so nobody has to know an exact name. Drawn in the
// page rather than as a native <datalist>, whose popup some shells do not show and no test can see.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';

const MAX_SHOWN = 12;

export function SuggestInput({
  label,
  value,
  list,
  placeholder = 'any',
  onCommit,
}: {
  label: string;
  value: string | undefined;
  list?: string[];
  placeholder?: string;
  onCommit(v: string): void;
}) {
  const [text, setText] = useState(value ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => setText(value ?? ''), [value]);

  const needle = text.trim().toLowerCase();
  const shown = (list ?? []).filter((v) => v.toLowerCase().includes(needle) && v !== text).slice(0, MAX_SHOWN);
  const commit = (v: string) => {
    setText(v);
    setOpen(false);
    setActive(-1);
    if (v.trim() !== (value ?? '')) onCommit(v.trim());
  };

  // The list hangs from the field's left edge; for a field near the window's right edge (the Interceptor
  // chip at 1440 px) that would cut the names off, so it then hangs from the field's right edge instead.
  // Measured before paint, on every render, as the names shown change its width.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    list.classList.remove('end');
    list.classList.toggle('end', list.getBoundingClientRect().right > document.documentElement.clientWidth - 8);
  });

  return (
    <span className="suggest">
      <input
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={open && shown.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={placeholder}
        value={text}
        size={Math.max(4, Math.min(28, (text || placeholder).length + 1))}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((a) => (shown.length === 0 ? -1 : (a + step + shown.length) % shown.length));
          } else if (e.key === 'Enter') {
            commit(open && active >= 0 && shown[active] ? shown[active]! : text);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
        // A click on a suggestion lands before blur (mousedown is prevented there), so blur only commits text.
        onBlur={() => commit(text)}
      />
      {open && shown.length > 0 && (
        <ul ref={listRef} className="suggest-list" role="listbox" id={listId} aria-label={`${label} suggestions`}>
          {shown.map((v, i) => (
            <li
              key={v}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                commit(v);
              }}
            >
              {v}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
