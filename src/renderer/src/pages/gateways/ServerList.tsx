import type { InterceptorServerState } from '../../../../shared/api/models';
import { Status } from '../../components/Status';

export function ServerList({ servers }: { servers: InterceptorServerState[] }) {
  if (servers.length === 0) return <div className="muted">No interceptor servers: traffic passes through unchanged.</div>;
  return (
    <ul className="servers" aria-label="Interceptor servers" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {servers.map((s) => (
        <li key={s.name} className="server" title={s.target}>
          <strong>{s.name}</strong>
          <span className="tag">{s.transport}</span>
          <Status status={s.status} />
          {s.interceptorCount !== undefined && <span className="muted">{s.interceptorCount} interceptors</span>}
          {s.failOpen && <span className="tag">fail-open</span>}
          {s.error && <span className="err">{s.error}</span>}
          {s.configErrors?.map((e) => (
            <span
              key={e}
              className="err"
              data-testid={`server-config-error-${s.name}`}
              title="Configuration error: this interceptor is skipped until its config is fixed"
            >
              config error: {e}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}
