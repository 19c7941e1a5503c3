// The invoke context a user sets by hand: who the principal is, and the trace and session ids an
// interceptor may key state on (cross-boundary-guard tracks taint per sessionId).
export interface ContextFieldValues {
  principalType: 'user' | 'service' | 'anonymous' | '';
  principalId: string;
  traceId: string;
  sessionId: string;
}

export function contextFromFields(v: ContextFieldValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.principalType) out.principal = { type: v.principalType, ...(v.principalId.trim() ? { id: v.principalId.trim() } : {}) };
  if (v.traceId.trim()) out.traceId = v.traceId.trim();
  if (v.sessionId.trim()) out.sessionId = v.sessionId.trim();
  return out;
}

export function ContextFields({ value, onChange }: { value: ContextFieldValues; onChange(v: ContextFieldValues): void }) {
  const set = (patch: Partial<ContextFieldValues>) => onChange({ ...value, ...patch });
  return (
    <div className="row">
      <label className="field">
        Principal
        <select
          aria-label="Principal type"
          value={value.principalType}
          onChange={(e) => set({ principalType: e.target.value as ContextFieldValues['principalType'] })}
        >
          <option value="">(none)</option>
          <option value="user">user</option>
          <option value="service">service</option>
          <option value="anonymous">anonymous</option>
        </select>
      </label>
      <label className="field">
        Principal id
        <input type="text" aria-label="Principal id" value={value.principalId} onChange={(e) => set({ principalId: e.target.value })} />
      </label>
      <label className="field">
        traceId
        <input type="text" aria-label="Trace id" placeholder="(none)" value={value.traceId} onChange={(e) => set({ traceId: e.target.value })} />
      </label>
      <label className="field">
        sessionId
        <input type="text" aria-label="Session id" placeholder="(none)" value={value.sessionId} onChange={(e) => set({ sessionId: e.target.value })} />
      </label>
    </div>
  );
}
