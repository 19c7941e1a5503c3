// The new-gateway wizard: backend → interceptor servers → listener → review, then create (and start).
// The result is an ordinary config file; the Chain screen opens on it so the chain can be composed.
import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../api/context';
import { Dialog } from '../../../components/Dialog';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { parseGatewayConfig, formatConfigErrors } from '../../../../../shared/config';
import { serializeConfig } from '../doc/useConfigDocument';
import { BackendStep } from './BackendStep';
import { backendEntry, emptyEndpoint, endpointComplete, serverEntry, slugify, type BackendTest, type EndpointDraft, type ServerDraft } from './entries';
import { ListenerStep, listenConfig, randomToken, type ListenerDraft } from './ListenerStep';
import { ServersStep } from './ServersStep';

const STEPS = ['Backend', 'Interceptor servers', 'Listener', 'Review'] as const;

interface Props {
  open: boolean;
  onClose(): void;
  onCreated(id: string): void;
}

export function NewGatewayWizard({ open, onClose, onCreated }: Props) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [step, setStep] = useState(0);
  const [backend, setBackend] = useState<EndpointDraft>(emptyEndpoint('backend'));
  const [backendTest, setBackendTest] = useState<BackendTest>();
  const [servers, setServers] = useState<ServerDraft[]>([]);
  const [startDisabled, setStartDisabled] = useState(true);
  const [listener, setListener] = useState<ListenerDraft>({
    name: '',
    transport: 'http',
    host: '127.0.0.1',
    port: '0',
    path: '/mcp',
    requireToken: true,
    token: randomToken(),
    start: true,
  });
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    if (!open) return;
    // A concrete free port, so the URL stays the same across restarts.
    api.call('chain.freePort').then(
      ({ port }) => setListener((l) => (l.port === '0' ? { ...l, port: String(port) } : l)),
      () => undefined,
    );
  }, [open, api]);

  const config = useMemo(() => {
    const overrides: Record<string, { enabled: false }> = {};
    if (startDisabled) {
      for (const s of servers) for (const d of s.test?.interceptors ?? []) overrides[`${s.draft.name.trim()}/${d.name}`] = { enabled: false };
    }
    const name = listener.name.trim() || backend.name.trim() || 'gateway';
    return {
      serverInfo: { name, version: '1.0.0' },
      backend: backendEntry(backend),
      staticInterceptors: servers.map(serverEntry),
      listen: listenConfig(listener),
      ...(Object.keys(overrides).length ? { overrides } : {}),
    };
  }, [backend, servers, listener, startDisabled]);
  const validation = useMemo(() => parseGatewayConfig(config), [config]);

  const canNext =
    step === 0
      ? endpointComplete(backend) && backendTest?.ok !== false
      : step === 1
        ? servers.every((s) => !s.testing)
        : step === 2
          ? listener.transport === 'stdio' || listener.port !== ''
          : validation.ok;

  const create = async () => {
    setCreating(true);
    setError(undefined);
    try {
      const id = slugify(String(config.serverInfo.name));
      const ids = new Set((await api.call('gateways.list')).map((g) => g.id));
      let unique = id;
      for (let i = 2; ids.has(unique); i++) unique = `${id}-${i}`;
      const info = await api.call('gateways.create', { id: unique, config, start: listener.transport === 'http' && listener.start });
      void queryClient.invalidateQueries({ predicate: (q) => ((q.meta?.tables as string[] | undefined) ?? []).includes('gateways') });
      onCreated(info.id);
      reset();
    } catch (err) {
      setError(err);
    } finally {
      setCreating(false);
    }
  };

  const reset = () => {
    setStep(0);
    setBackend(emptyEndpoint('backend'));
    setBackendTest(undefined);
    setServers([]);
    setListener((l) => ({ ...l, name: '', port: '0', token: randomToken() }));
    setError(undefined);
  };

  return (
    <Dialog
      title="New gateway"
      open={open}
      onClose={onClose}
      footer={
        <>
          <span className="muted wizard-progress">
            Step {step + 1} of {STEPS.length}: {STEPS[step]}
          </span>
          <button type="button" onClick={() => (step === 0 ? onClose() : setStep(step - 1))}>
            {step === 0 ? 'Cancel' : 'Back'}
          </button>
          {step < STEPS.length - 1 ? (
            <button type="button" className="primary" disabled={!canNext} onClick={() => setStep(step + 1)}>
              Next
            </button>
          ) : (
            <button type="button" className="primary" disabled={!validation.ok || creating} onClick={() => void create()}>
              {creating ? 'Creating…' : listener.transport === 'http' && listener.start ? 'Create and start' : 'Create'}
            </button>
          )}
        </>
      }
    >
      <ol className="wizard-steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s} aria-current={i === step ? 'step' : undefined} className={i < step ? 'done' : ''}>
            {s}
          </li>
        ))}
      </ol>
      {step === 0 && <BackendStep value={backend} onChange={setBackend} test={backendTest} onTest={setBackendTest} />}
      {step === 1 && <ServersStep servers={servers} onChange={setServers} startDisabled={startDisabled} onStartDisabled={setStartDisabled} />}
      {step === 2 && <ListenerStep value={listener} onChange={setListener} />}
      {step === 3 && (
        <div className="wizard-step" data-testid="wizard-review">
          {!validation.ok && <div className="banner error">{formatConfigErrors(validation.errors)}</div>}
          {startDisabled && servers.some((s) => !s.test?.ok) && (
            <div className="banner info">Servers that were not reached cannot have their interceptors disabled up front; they start enabled.</div>
          )}
          <pre className="wizard-preview mono" aria-label="Config preview">
            {serializeConfig(config)}
          </pre>
          <ErrorBanner error={error} />
        </div>
      )}
    </Dialog>
  );
}
