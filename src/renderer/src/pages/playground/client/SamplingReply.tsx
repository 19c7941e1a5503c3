// The reply form of a sampling/createMessage request: the user plays the model. Shows what the server
// asked (system prompt, messages, limits), then model name, role, text and stop reason; or Reject.
import { useState } from 'react';
import type { PendingServerRequest, ServerRequestAnswer } from '../../../../../shared/api/models-client-requests';

type Message = { role?: string; content?: { type?: string; text?: string } | { type?: string; text?: string }[] };

const STOP_REASONS = ['endTurn', 'stopSequence', 'maxTokens'];

export function SamplingReply({ request, onAnswer, busy }: { request: PendingServerRequest; onAnswer: (answer: ServerRequestAnswer) => void; busy: boolean }) {
  const [model, setModel] = useState('console-user');
  const [role, setRole] = useState<'assistant' | 'user'>('assistant');
  const [text, setText] = useState('');
  const [stopReason, setStopReason] = useState('endTurn');
  const params = request.params;
  const messages = (params.messages as Message[] | undefined) ?? [];
  const limits = [
    typeof params.maxTokens === 'number' && `maxTokens ${params.maxTokens}`,
    typeof params.temperature === 'number' && `temperature ${params.temperature}`,
    Array.isArray(params.stopSequences) && params.stopSequences.length > 0 && `stop at ${params.stopSequences.map(String).join(', ')}`,
  ].filter(Boolean);

  return (
    <form
      className="server-request-form"
      aria-label="Sampling reply"
      onSubmit={(e) => {
        e.preventDefault();
        onAnswer({ kind: 'sampling', model, role, text, ...(stopReason ? { stopReason } : {}) });
      }}
    >
      {typeof params.systemPrompt === 'string' && (
        <div className="muted">
          System prompt: <span className="quote">{params.systemPrompt}</span>
        </div>
      )}
      <ol className="sampling-messages" aria-label="Messages to sample from">
        {messages.map((m, i) => (
          <li key={i}>
            <b>{m.role ?? '?'}</b> <span className="pre-line">{messageText(m)}</span>
          </li>
        ))}
      </ol>
      {limits.length > 0 && <div className="muted">{limits.join(' · ')}</div>}
      <div className="row">
        <label className="field">
          Model
          <input type="text" aria-label="Model" value={model} onChange={(e) => setModel(e.target.value)} required />
        </label>
        <label className="field">
          Role
          <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as 'assistant' | 'user')}>
            <option value="assistant">assistant</option>
            <option value="user">user</option>
          </select>
        </label>
        <label className="field">
          Stop reason
          <select aria-label="Stop reason" value={stopReason} onChange={(e) => setStopReason(e.target.value)}>
            {STOP_REASONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
            <option value="">(none)</option>
          </select>
        </label>
      </div>
      <label className="field">
        Text
        <textarea aria-label="Reply text" rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder="What the model answers" />
      </label>
      <div className="row end">
        <button type="button" disabled={busy} onClick={() => onAnswer({ kind: 'reject' })}>
          Reject
        </button>
        <button type="submit" className="primary" disabled={busy || !model.trim()}>
          Send reply
        </button>
      </div>
    </form>
  );
}

function messageText(m: Message): string {
  const blocks = Array.isArray(m.content) ? m.content : m.content ? [m.content] : [];
  return blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type ?? 'content'}]`)).join('\n');
}
