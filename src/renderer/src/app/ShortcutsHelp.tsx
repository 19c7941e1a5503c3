// `?` anywhere (outside a text field, with no dialog open) shows the keyboard shortcuts of every screen;
// the rail's "Keyboard shortcuts" button opens the same list. The list is written here, next to nothing
// it describes, so a new shortcut in a page must be added to SHORTCUTS too.
import { useEffect, useState } from 'react';
import { Dialog } from '../components/Dialog';

const SHORTCUTS: { area: string; keys: [string, string][] }[] = [
  { area: 'Everywhere', keys: [['?', 'Show these shortcuts']] },
  {
    area: 'Traffic',
    keys: [
      ['/', 'Search'],
      ['j / k', 'Next / previous execution'],
      ['Enter', 'Open the execution under the cursor'],
      ['r', 'Replay the execution under the cursor'],
      ['Esc', 'Close the detail'],
    ],
  },
  {
    area: 'Messages',
    keys: [
      ['/', 'Search in messages'],
      ['j / k', 'Open the next / previous message'],
      ['Esc', 'Close the message'],
    ],
  },
  {
    area: 'Chain',
    keys: [
      ['Ctrl+S', 'Save the gateway config'],
      ['Ctrl+Z', 'Undo'],
      ['Ctrl+Shift+Z / Ctrl+Y', 'Redo'],
    ],
  },
];

function typingIn(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  return Boolean(t && (t.isContentEditable || t.closest('input, textarea, select, [contenteditable="true"]')));
}

export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button type="button" className="ghost small shortcuts-button" onClick={() => setOpen(true)} title="Keyboard shortcuts (?)">
        Keyboard shortcuts
      </button>
      <Dialog title="Keyboard shortcuts" open={open} onClose={() => setOpen(false)}>
        {SHORTCUTS.map((s) => (
          <section key={s.area} aria-label={`${s.area} shortcuts`}>
            <h3>{s.area}</h3>
            <dl className="shortcut-list">
              {s.keys.map(([key, what]) => (
                <div key={key}>
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </Dialog>
    </>
  );
}
