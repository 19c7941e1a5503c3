// One paused call: the payload at that point in a JSON editor (checked live against the method's schema;
// the gateway checks again before it takes the edit), the interceptors stepped so far with their input
// and result, the chain traces so far, and the decisions: continue, edit & continue, block with a message,
// answer with a result of one's own (a mock), step to the next interceptor.
import { useMemo, useState } from 'react';
import type { PausedCall, PauseDecision } from '../../../../shared/trace/pauses';
import { payloadShape } from '../../../../shared/templates/payload-shapes';
import { payloadTemplate } from '../../../../shared/templates/payloads';
import { useApiMutation } from '../../api/context';
import { CodeBlock } from '../../components/CodeBlock';
import { ErrorBanner } from '../../components/ErrorBanner';
import { JsonEditor } from '../../components/json-editor/JsonEditor';
import { TraceView } from '../../components/trace/TraceView';
import { POINT_LABEL } from './labels';

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parseObject(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'expected a JSON object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

export function PausedDetail({ pause }: { pause: PausedCall }) {
  const decide = useApiMutation('breakpoints.decide', ['pauses']);
  const original = useMemo(() => JSON.stringify(pause.payload, null, 2), [pause.payload]);
  const [text, setText] = useState(original);
  const [message, setMessage] = useState('');
  const [answering, setAnswering] = useState(false);
  const [answer, setAnswer] = useState(() => JSON.stringify(payloadTemplate(pause.method, 'response').payload, null, 2));
  const phase = pause.at.startsWith('response') ? 'response' : 'request';
  const parsed = parseObject(text);
  const parsedAnswer = parseObject(answer);
  const issues = useMemo(() => (parsed.ok ? (payloadShape(pause.method, phase)?.check(parsed.value) ?? []) : [parsed.error]), [parsed, pause.method, phase]);
  const answerIssues = useMemo(
    () => (parsedAnswer.ok ? (payloadShape(pause.method, 'response')?.check(parsedAnswer.value) ?? []) : [parsedAnswer.error]),
    [parsedAnswer, pause.method],
  );
  const allowed = new Set(pause.allowed);
  const edited = text !== original;
  const send = (decision: PauseDecision) => decide.mutate({ gateway: pause.gateway, id: pause.id, decision });

  return (
    <section className="paused-detail" aria-label="Paused call">
      <div className="paused-facts">
        <span className="pill blocked">paused</span>
        <span className="mono">{pause.method}</span>
        {pause.target && <b>{pause.target}</b>}
        <span className="muted">
          {pause.gateway} · {POINT_LABEL[pause.at]}
          {pause.interceptor ? ` ${pause.interceptor}` : ''} · breakpoint {pause.breakpoint}
          {pause.principal ? ` · principal ${pause.principal}` : ''}
        </span>
      </div>
      <JsonEditor
        value={text}
        onChange={setText}
        label={pause.at === 'before-interceptor' ? `Input of ${pause.interceptor}` : `Payload at this point (${phase === 'request' ? 'params' : 'result'})`}
        readOnly={!allowed.has('edit')}
        height="260px"
      />
      {allowed.has('edit') && issues.length > 0 && (
        <ul className="editor-issues" aria-label="Payload problems">
          {issues.slice(0, 5).map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      <div className="decision-bar" role="toolbar" aria-label="Decision">
        <button type="button" className="primary" disabled={decide.isPending} onClick={() => send({ kind: 'continue' })}>
          Continue
        </button>
        {allowed.has('edit') && (
          <button
            type="button"
            disabled={decide.isPending || !edited || !parsed.ok || issues.length > 0}
            onClick={() => parsed.ok && send({ kind: 'edit', payload: parsed.value })}
          >
            Edit & continue
          </button>
        )}
        {allowed.has('step') && (
          <button
            type="button"
            disabled={decide.isPending}
            onClick={() => send({ kind: 'step' })}
            title="Pause before the next interceptor (and at the next point)"
          >
            Step
          </button>
        )}
        {allowed.has('answer') && (
          <button type="button" aria-pressed={answering} onClick={() => setAnswering(!answering)}>
            Answer…
          </button>
        )}
      </div>
      <div className="decision-bar">
        <input
          type="text"
          aria-label="Block message"
          placeholder="Why it is blocked (the client reads this)"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <button type="button" className="danger" disabled={decide.isPending || message.trim().length === 0} onClick={() => send({ kind: 'block', message })}>
          Block
        </button>
      </div>
      {answering && (
        <div className="answer-box">
          <JsonEditor value={answer} onChange={setAnswer} label="Mock result" height="180px" />
          {answerIssues.length > 0 && (
            <ul className="editor-issues" aria-label="Result problems">
              {answerIssues.slice(0, 5).map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          )}
          <button
            type="button"
            disabled={decide.isPending || !parsedAnswer.ok || answerIssues.length > 0}
            onClick={() => parsedAnswer.ok && send({ kind: 'answer', result: parsedAnswer.value })}
          >
            Send this answer
          </button>
        </div>
      )}
      <ErrorBanner error={decide.error} />
      {pause.stepped && pause.stepped.length > 0 && (
        <div className="stepped" role="group" aria-label="Stepped so far">
          <h3>Stepped so far</h3>
          {pause.stepped.map((s) => (
            <details key={s.id}>
              <summary>
                <span className="mono">{s.id}</span> · {s.durationMs.toFixed(1)} ms{s.error ? ` · ${s.error}` : ''}
              </summary>
              <CodeBlock label={`Input of ${s.id}`} text={JSON.stringify(s.input, null, 2)} />
              {s.result !== undefined && <CodeBlock label={`Result of ${s.id}`} text={JSON.stringify(s.result, null, 2)} />}
            </details>
          ))}
        </div>
      )}
      {pause.requestTrace && <TraceView trace={pause.requestTrace} label="Request phase so far" />}
      {pause.responseTrace && <TraceView trace={pause.responseTrace} label="Response phase so far" />}
    </section>
  );
}
