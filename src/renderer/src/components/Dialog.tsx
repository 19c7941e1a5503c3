// A modal built on the native <dialog>: focus trapping, Escape and the dialog role come for free.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Dialog(props: { title: string; open: boolean; onClose(): void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} onCancel={props.onClose}>
      {props.open && (
        <>
          <div className="dialog-head">
            <h2 id={titleId}>{props.title}</h2>
            <button type="button" className="ghost small" aria-label="Close" onClick={props.onClose}>
              ✕
            </button>
          </div>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-foot">{props.footer}</div>}
        </>
      )}
    </dialog>
  );
}
