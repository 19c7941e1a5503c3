// completion/complete for a prompt's arguments ([desktop-client] item 4): pick an argument, ask the server
// what fits what is typed in it so far (the other arguments sent as context), click a value to use it.
import { useState } from 'react';
import { useApiMutation } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';

export function PromptCompletions(props: {
  sessionId: string;
  prompt: string;
  argumentNames: string[];
  values: Record<string, string>;
  onPick(name: string, value: string): void;
}) {
  const complete = useApiMutation('client.complete');
  const [name, setName] = useState(props.argumentNames[0] ?? '');
  if (props.argumentNames.length === 0) return null;
  const ask = () => {
    const context = Object.fromEntries(Object.entries(props.values).filter(([k]) => k !== name));
    complete.mutate({ sessionId: props.sessionId, prompt: props.prompt, argument: { name, value: props.values[name] ?? '' }, context });
  };
  return (
    <div className="row completions" aria-label="Completions">
      <label className="inline">
        Complete
        <select value={name} onChange={(e) => setName(e.target.value)} aria-label="Argument to complete">
          {props.argumentNames.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      <button type="button" className="small" disabled={complete.isPending} onClick={ask}>
        Suggest
      </button>
      {complete.data && (
        <span aria-label="Suggestions">
          {complete.data.values.length === 0 && <span className="muted">no suggestion</span>}
          {complete.data.values.map((v) => (
            <button key={v} type="button" className="ghost small" onClick={() => props.onPick(name, v)}>
              {v}
            </button>
          ))}
        </span>
      )}
      <ErrorBanner error={complete.error} />
    </div>
  );
}
