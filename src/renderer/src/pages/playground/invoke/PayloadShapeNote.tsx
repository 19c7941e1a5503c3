// Says whether the payload has the shape its event and phase call for (the MCP SDK's schemas). A
// warning only: sending a malformed payload on purpose is a fair test of an interceptor.
import { useMemo } from 'react';
import { payloadShape } from '../../../../../shared/templates/payload-shapes';
import type { parseJsonText } from '../../../components/json-editor/JsonEditor';

export function PayloadShapeNote({ event, phase, payload }: { event: string; phase: 'request' | 'response'; payload: unknown }) {
  const verdict = useMemo(() => {
    const shape = payloadShape(event, phase);
    return shape ? { name: shape.name, issues: shape.check(payload) } : undefined;
  }, [event, phase, payload]);
  if (!verdict) return <div className="shape-note muted">No known payload shape for {event}: any JSON is sent as is.</div>;
  if (verdict.issues.length === 0)
    return (
      <div className="shape-note ok" aria-label="Payload shape">
        ✓ a valid {verdict.name}
      </div>
    );
  return (
    <div className="shape-note warn" aria-label="Payload shape">
      Not a valid {verdict.name} (it will be sent anyway):
      <ul>
        {verdict.issues.slice(0, 5).map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </div>
  );
}

/** Under the payload editor: why the text is not JSON, else whether the JSON has the payload's shape. */
export function PayloadCheck({ parsed, event, phase }: { parsed: ReturnType<typeof parseJsonText>; event: string; phase: 'request' | 'response' }) {
  return parsed.ok ? <PayloadShapeNote event={event} phase={phase} payload={parsed.value} /> : <div className="field-error">{parsed.error}</div>;
}
