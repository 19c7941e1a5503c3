// The wizard's working state and how it becomes config entries (the gateway config schema's shapes).
import type { ImportedServer } from '../../../../../shared/api/models';
import { quoteCommandLine, splitCommandLine } from '../../../../../shared/shell/shell-words';
import type { TestBackendResult, TestServerResult } from '../../../../../shared/api/models-chain';

export type EntryKind = 'command' | 'url';

export interface EndpointDraft {
  name: string;
  kind: EntryKind;
  command: string;
  /** One argument per line: no quoting rules to get wrong. */
  args: string;
  cwd: string;
  /** NAME=value per line. */
  env: string;
  url: string;
  urlTransport: 'http' | 'sse';
  /** `Header: value` per line. */
  headers: string;
}

export interface ServerDraft {
  key: number;
  /** A ready entry (e.g. the bundled samples, localised by the core) instead of the fields. */
  preset?: Record<string, unknown>;
  draft: EndpointDraft;
  failOpen: boolean;
  test?: TestServerResult;
  testing?: boolean;
}

export const emptyEndpoint = (name: string): EndpointDraft => ({
  name,
  kind: 'command',
  command: '',
  args: '',
  cwd: '',
  env: '',
  url: '',
  urlTransport: 'http',
  headers: '',
});

/** The arguments of the one-per-line field, as they are spawned. */
export function argumentLines(text: string): string[] {
  return lines(text);
}

/** The words of a pasted command line, or undefined when it does not split (an unterminated quote). */
export function commandLineWords(text: string): string[] | undefined {
  try {
    return splitCommandLine(text.trim());
  } catch {
    return undefined;
  }
}

/**
 * The Command field as it is spawned: a command typed with its arguments (`node /path/index.js --flag`) is split
 * into the program and the arguments that come before the one-per-line ones, quotes honoured like a shell
 * (a path with spaces is quoted, as in a terminal). Spawning the whole line as one program name fails with
 * ENOENT, which is never what a user typing it meant. A line that does not split (an unterminated quote) is
 * kept as typed, so the error names what was typed.
 */
export function commandWords(command: string): { program: string; leadingArgs: string[] } {
  const typed = command.trim();
  const words = /\s/.test(typed) ? commandLineWords(typed) : undefined;
  if (!words || words.length === 0) return { program: typed, leadingArgs: [] };
  return { program: words[0]!, leadingArgs: words.slice(1) };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

function pairs(text: string, sep: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of lines(text)) {
    const i = line.indexOf(sep);
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/** A backend entry (stdio / http / sse) from the form. */
export function backendEntry(d: EndpointDraft): Record<string, unknown> {
  if (d.kind === 'command') {
    const env = pairs(d.env, '=');
    const { program, leadingArgs } = commandWords(d.command);
    return {
      transport: 'stdio',
      name: d.name.trim(),
      command: program,
      arguments: [...leadingArgs, ...lines(d.args)],
      ...(env ? { env } : {}),
      ...(d.cwd.trim() ? { cwd: d.cwd.trim() } : {}),
    };
  }
  const headers = pairs(d.headers, ':');
  return { transport: d.urlTransport, name: d.name.trim(), endpoint: d.url.trim(), ...(headers ? { headers } : {}) };
}

/** An interceptor-server entry (stdio / http) from the form, or its preset. */
export function serverEntry(s: ServerDraft): Record<string, unknown> {
  const base = s.preset ? { ...s.preset, name: s.draft.name.trim() } : backendEntry({ ...s.draft, urlTransport: 'http' });
  return { ...base, ...(s.failOpen ? { failOpen: true } : {}) };
}

/** Fills the form from a server found in a Claude Desktop / Cursor / VS Code config. */
export function fromImported(s: ImportedServer): EndpointDraft {
  const d = emptyEndpoint(s.name);
  if (s.transport === 'stdio') {
    return {
      ...d,
      kind: 'command',
      // Quoted when it holds a space (`/Applications/My App/server`): the Command field splits at spaces.
      command: s.command && /\s/.test(s.command) ? quoteCommandLine([s.command]) : (s.command ?? ''),
      args: (s.args ?? []).join('\n'),
      cwd: s.cwd ?? '',
      env: Object.entries(s.env ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    };
  }
  return {
    ...d,
    kind: 'url',
    url: s.url ?? '',
    urlTransport: s.transport === 'sse' ? 'sse' : 'http',
    headers: Object.entries(s.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  };
}

export function endpointComplete(d: EndpointDraft): boolean {
  return d.name.trim() !== '' && (d.kind === 'command' ? d.command.trim() !== '' : /^https?:\/\//.test(d.url.trim()));
}

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'gateway'
  );
}

export type BackendTest = TestBackendResult | undefined;
