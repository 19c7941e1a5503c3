// One Settings section's save: its own request, so that the confirmation (what was saved, and when) and any
// error appear in that section, next to the control that caused them, not in a banner at the top of the page.
import { useState } from 'react';
import type { Settings } from '../../../../shared/api/models';
import { useApiMutation } from '../../api/context';
import { timeOfDay } from '../../time-format';

export interface SectionSave {
  save(patch: Partial<Settings>): void;
  pending: boolean;
  /**
   * The values of the last save unless it failed: a control shows these rather than the stored settings,
   * which are refetched only after the save answers. Without it a controlled checkbox snaps back to the old
   * value while the save is in flight (and a click "does not change its state").
   */
  draft: Partial<Settings> | undefined;
  /** The last confirmation, e.g. "Saved 14:02:11: theme dark." */
  note: string | undefined;
  error: string | undefined;
  /** Clears the note and the error (the user is editing again). */
  reset(): void;
}

/** `describe` turns what the server saved into the confirmation's words. */
export function useSettingsSave(describe: (saved: Settings) => string): SectionSave {
  const update = useApiMutation('settings.update', ['settings']);
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();
  // Component state, set in the same event as the click: the mutation's own `variables` reach the component
  // only when react-query's notifier flushes (a timer later), and in between React restores the controlled
  // checkbox to the stored value, which a click checked at once sees as "did not change its state".
  const [draft, setDraft] = useState<Partial<Settings>>();
  return {
    save: (patch) => {
      setNote(undefined);
      setError(undefined);
      setDraft(patch);
      update.mutate(patch, {
        onSuccess: (saved) => setNote(`Saved ${timeOfDay(Date.now())}: ${describe(saved)}`),
        onError: (err) => {
          setDraft(undefined);
          setError(err instanceof Error ? err.message : String(err));
        },
      });
    },
    pending: update.isPending,
    draft,
    note,
    error,
    reset: () => {
      setNote(undefined);
      setError(undefined);
    },
  };
}

/** The section's confirmation or error, announced to screen readers; `name` labels it ("Theme", "Redaction"). */
export function SaveOutcome({ name, state }: { name: string; state: SectionSave }) {
  if (state.error) {
    return (
      <div className="banner error" role="alert" aria-label={`${name} not saved`}>
        Not saved: {state.error}
      </div>
    );
  }
  if (!state.note) return null;
  return (
    <div className="save-note" role="status" aria-label={`${name} saved`}>
      ✓ {state.note}
    </div>
  );
}
