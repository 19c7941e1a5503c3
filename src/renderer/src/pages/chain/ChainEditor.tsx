// The Chain screen for one gateway: toolbar (event, phase, protocol, canvas/JSON, undo/redo, save), palette,
// canvas and side panel, all editing one config document. Save writes the file byte for byte and a
// running gateway hot-reloads it.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import type { ChainSaveResult } from '../../../../shared/api/models-chain';
import { ChainCanvas } from './canvas/ChainCanvas';
import { overridesOf, patchOverride, reorderMutations, setEnabled, type Hook } from './doc/overrides';
import type { OverrideSettings } from '../../../../shared/config/effective-settings';
import { useConfigDocument } from './doc/useConfigDocument';
import { JsonTab } from './JsonTab';
import { Palette } from './Palette';
import { SidePanel, type PanelDescriptor } from './SidePanel';
import { Toolbar } from './Toolbar';
import { SKIP_LABELS } from './skip-reasons';
import { useChainData, useDebounced, type Phase } from './useChainData';

export function ChainEditor({ id }: { id: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const loaded = useQuery({ queryKey: ['chain.load', id], queryFn: () => api.call('chain.load', { id }), staleTime: Infinity, gcTime: 0 });
  const doc = useConfigDocument('');
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (loaded.data && !ready) {
      doc.load(loaded.data.text);
      // An unsaved draft survives leaving the screen (same tab), as long as the file did not change meanwhile.
      const draft = readDraft(id);
      if (draft && draft.base === loaded.data.text && draft.text !== draft.base) doc.setText(draft.text);
      setReady(true);
    }
  }, [loaded.data, ready, doc, id]);
  useEffect(() => {
    if (ready) writeDraft(id, doc.dirty ? { base: doc.saved, text: doc.text } : undefined);
  }, [ready, doc.dirty, doc.text, doc.saved, id]);
  useEffect(() => {
    if (!doc.dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [doc.dirty]);

  const [event, setEvent] = useState('tools/call');
  const [phase, setPhase] = useState<Phase>('request');
  const [protocolVersion, setProtocolVersion] = useState('');
  const [tab, setTab] = useState<'canvas' | 'json'>('canvas');
  const [selectedId, setSelectedId] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [saved, setSaved] = useState<ChainSaveResult>();
  const [savedAt, setSavedAt] = useState<number>();
  const [saveError, setSaveError] = useState<unknown>();
  const [saving, setSaving] = useState(false);

  const valid = Boolean(doc.config);
  const data = useChainData(id, doc.raw, valid, event, protocolVersion);
  const draftForIssues = useDebounced(valid ? doc.raw : undefined, 400);
  const issues = useQuery({
    queryKey: ['chain.checkOverrides', id, JSON.stringify(draftForIssues ?? null), data.discovery ? 1 : 0],
    queryFn: () => api.call('chain.checkOverrides', { id, config: draftForIssues! }),
    enabled: Boolean(draftForIssues) && Boolean(data.discovery),
    retry: false,
  });
  const overrideIssues = valid ? (issues.data ?? []) : [];

  const save = useCallback(async () => {
    if (!valid || saving) return;
    setSaving(true);
    setSaveError(undefined);
    try {
      const result = await api.call('chain.save', { id, text: doc.text });
      doc.markSaved(result.text);
      setSaved(result);
      setSavedAt(Date.now());
      void queryClient.invalidateQueries({ predicate: (q) => ((q.meta?.tables as string[] | undefined) ?? []).includes('gateways') });
    } catch (err) {
      setSaveError(err);
    } finally {
      setSaving(false);
    }
  }, [api, doc, id, queryClient, saving, valid]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod) return;
      const key = e.key.toLowerCase();
      if (key === 's') {
        e.preventDefault();
        void save();
        return;
      }
      // Inside text fields (and the JSON editor) the field's own undo applies.
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        doc.undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        doc.redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [doc, save]);

  const descriptors = useMemo(() => {
    const map = new Map<string, { server: string; descriptor: PanelDescriptor }>();
    for (const s of data.discovery?.servers ?? []) {
      for (const d of s.interceptors) map.set(`${s.name}/${d.name}`, { server: s.name, descriptor: d as unknown as PanelDescriptor });
    }
    return map;
  }, [data.discovery]);

  const onDrop = (interceptorId: string) => {
    doc.editRaw((raw) => setEnabled(raw, interceptorId, true));
    setSelectedId(interceptorId);
    const planned = data.order[phase]?.find((e) => e.id === interceptorId);
    setNotice(
      planned?.skipped && planned.skipped !== 'disabled'
        ? `${interceptorId} is enabled, but it does not run for ${event} (${phase}): ${SKIP_LABELS[planned.skipped] ?? planned.skipped}.`
        : undefined,
    );
  };

  const checkHooks = async (hooks: Hook[]): Promise<string | undefined> => {
    if (!doc.raw || !selectedId) return 'The config is not valid JSON; fix it in the JSON tab first.';
    const draft = patchOverride(doc.raw, selectedId, { hooks });
    const found = await api.call('chain.checkOverrides', { id, config: draft });
    return found.find((i) => i.key === selectedId && i.severity === 'error')?.message;
  };

  if (loaded.error) return <ErrorBanner error={loaded.error} />;
  if (!loaded.data || !ready) return <div className="muted pad">Loading the config…</div>;
  const info = saved?.info ?? loaded.data.info;
  const selected = selectedId ? descriptors.get(selectedId) : undefined;
  const selectedServer = selectedId ? (selected?.server ?? selectedId.split('/')[0]!) : '';
  const failedClosed = (data.discovery?.servers ?? []).filter((s) => !s.ok && !s.failOpen);

  return (
    <div className="chain-editor">
      <Toolbar
        event={event}
        onEvent={setEvent}
        phase={phase}
        onPhase={setPhase}
        protocolVersion={protocolVersion}
        onProtocolVersion={setProtocolVersion}
        tab={tab}
        onTab={setTab}
        canUndo={doc.canUndo}
        canRedo={doc.canRedo}
        onUndo={doc.undo}
        onRedo={doc.redo}
        dirty={doc.dirty}
        valid={valid && !overrideIssues.some((i) => i.severity === 'error')}
        saving={saving}
        onSave={() => void save()}
        status={info.status}
        saved={saved}
        savedAt={savedAt}
        ordering={data.ordering}
      />
      {saveError != null && <ErrorBanner error={saveError} />}
      {!valid && tab === 'canvas' && (
        <div className="banner error" role="alert">
          The config has {doc.errors.length} error{doc.errors.length === 1 ? '' : 's'} (first: <code>{doc.errors[0]?.path}</code> {doc.errors[0]?.message}). The
          canvas shows the last valid version; fix it in the JSON tab.
        </div>
      )}
      {data.orderError != null && valid && <ErrorBanner error={data.orderError} />}
      {failedClosed.length > 0 && (
        <div className="banner error">
          {failedClosed.map((s) => s.name).join(', ')} failed discovery and {failedClosed.length > 1 ? 'are' : 'is'} fail-closed: the gateway blocks intercepted
          requests until {failedClosed.length > 1 ? 'they answer' : 'it answers'}.
        </div>
      )}
      {notice && (
        <div className="banner info" role="status">
          {notice}
        </div>
      )}
      {tab === 'canvas' ? (
        <div className={`chain-editor-body${selectedId ? ' with-panel' : ''}`}>
          <Palette
            discovery={data.discovery}
            discovering={data.discovering}
            error={data.discoveryError}
            onRefresh={data.refreshDiscovery}
            order={data.order[phase]}
            event={event}
            phase={phase}
            selectedId={selectedId}
            onSelect={setSelectedId}
            overrides={overridesOf(data.draft) as Record<string, OverrideSettings>}
          />
          <ChainCanvas
            overrides={overridesOf(data.draft) as Record<string, OverrideSettings>}
            order={data.order}
            phase={phase}
            event={event}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onDropInterceptor={onDrop}
            onReorder={(ph, ids) =>
              doc.editRaw((raw) =>
                reorderMutations(raw, ph, ids, (id) => data.order[ph === 'request' ? 'response' : 'request']?.find((e) => e.id === id)?.priority),
              )
            }
            backendLabel={`Backend · ${info.backend.name}`}
            backendDetail={info.backend.target}
            editable={Boolean(doc.raw)}
          />
          {selectedId && (
            <SidePanel
              key={selectedId}
              id={selectedId}
              server={selectedServer}
              descriptor={selected?.descriptor}
              serverError={data.discovery?.servers.find((s) => s.name === selectedServer)?.error}
              planned={data.order[phase]?.find((e) => e.id === selectedId)}
              event={event}
              phase={phase}
              raw={doc.raw}
              shown={data.draft}
              stale={!valid}
              editable={Boolean(doc.raw)}
              onPatch={(patch) => doc.editRaw((raw) => patchOverride(raw, selectedId, patch))}
              onReset={() =>
                doc.editRaw((raw) => {
                  const overrides = { ...overridesOf(raw) };
                  delete overrides[selectedId];
                  const out: Record<string, unknown> = { ...raw, overrides };
                  if (Object.keys(overrides).length === 0) delete out.overrides;
                  return out;
                })
              }
              onClose={() => setSelectedId(undefined)}
              checkHooks={checkHooks}
            />
          )}
        </div>
      ) : (
        <JsonTab text={doc.text} onChange={doc.setText} errors={doc.errors} issues={overrideIssues} configPath={loaded.data.configPath} />
      )}
    </div>
  );
}

const draftKey = (id: string) => `chain-draft:${id}`;

function readDraft(id: string): { base: string; text: string } | undefined {
  try {
    const v = JSON.parse(sessionStorage.getItem(draftKey(id)) ?? 'null') as { base?: unknown; text?: unknown } | null;
    return v && typeof v.base === 'string' && typeof v.text === 'string' ? { base: v.base, text: v.text } : undefined;
  } catch {
    return undefined;
  }
}

function writeDraft(id: string, draft: { base: string; text: string } | undefined): void {
  try {
    if (draft) sessionStorage.setItem(draftKey(id), JSON.stringify(draft));
    else sessionStorage.removeItem(draftKey(id));
  } catch {
    // Storage full or disabled: the draft just does not survive navigation.
  }
}
