// `gateway … --break 'tools/call:echo'`: each call paused at a breakpoint is shown on the terminal (stderr)
// and decided there, one at a time: continue, edit the payload in $EDITOR, block with a message, answer
// with a result written in $EDITOR, or step. Answers are read line by line from `input` (the terminal, or
// a pipe); a pause that resolves meanwhile by itself (its timeout) is said so and skipped.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { payloadTemplate } from '../../shared/templates/payloads';
import type { PauseDecision, PausedCall } from '../../shared/trace/pauses';
import type { GatewayBreakpoints } from '../gateway/breakpoints/breakpoint-set';

const WHERE: Record<string, string> = {
  'request-before-chain': 'request, before the chain',
  'request-after-chain': 'request, after the chain',
  'response-before-chain': 'response, before the chain',
  'response-after-chain': 'response, after the chain',
  'before-interceptor': 'before interceptor',
};

export interface BreakPromptOptions {
  input: Readable;
  output: Writable;
  /** The editor command ($VISUAL, else $EDITOR, else vi); run through sh with the file as "$1". */
  editor: string;
}

export function attachBreakPrompt(breakpoints: GatewayBreakpoints, options: BreakPromptOptions): () => void {
  const lines = createInterface({ input: options.input, terminal: false });
  const waiting: ((line: string | undefined) => void)[] = [];
  const buffered: string[] = [];
  let ended = false;
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else buffered.push(line);
  });
  lines.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  const readLine = (prompt: string): Promise<string | undefined> => {
    options.output.write(prompt);
    if (buffered.length > 0) return Promise.resolve(buffered.shift());
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const say = (text: string) => options.output.write(`${text}\n`);

  const queue: PausedCall[] = [];
  let busy = false;
  const pump = async () => {
    if (busy) return;
    busy = true;
    while (queue.length > 0) {
      const pause = queue.shift()!;
      if (!breakpoints.pauses.get(pause.id)) continue; // resolved meanwhile (timeout, cancel)
      await promptFor(pause).catch((err: unknown) => say(`[break] ${(err as Error).message}`));
    }
    busy = false;
  };

  const promptFor = async (pause: PausedCall) => {
    say('');
    say(
      `[break] paused: ${pause.method}${pause.target ? ` ${pause.target}` : ''} (${WHERE[pause.at]}${pause.interceptor ? ` ${pause.interceptor}` : ''}) at breakpoint ${pause.breakpoint}`,
    );
    say(`[break] ${pause.onTimeout === 'block' ? 'blocks' : 'continues'} by itself in ${Math.round(pause.timeoutMs / 1000)} s`);
    say(JSON.stringify(pause.payload, null, 2));
    const keys = [
      pause.allowed.includes('continue') && '[c]ontinue',
      pause.allowed.includes('edit') && '[e]dit in $EDITOR',
      pause.allowed.includes('block') && '[b]lock',
      pause.allowed.includes('answer') && '[a]nswer',
      pause.allowed.includes('step') && '[s]tep',
    ].filter(Boolean);
    for (;;) {
      const answer = (await readLine(`[break] ${keys.join(', ')} > `))?.trim().toLowerCase();
      if (answer === undefined) return; // input closed: the pause resolves by its timeout
      if (!breakpoints.pauses.get(pause.id)) return say('[break] this pause resolved by itself meanwhile');
      const decision = await decisionFor(answer, pause);
      if (!decision) continue;
      try {
        breakpoints.pauses.decide(pause.id, decision, 'terminal');
        return say(`[break] ${decision.kind}`);
      } catch (err) {
        say(`[break] ${(err as Error).message}`);
      }
    }
  };

  const decisionFor = async (answer: string, pause: PausedCall): Promise<PauseDecision | undefined> => {
    if (answer === 'c' || answer === 'continue') return { kind: 'continue' };
    if (answer === 's' || answer === 'step') return { kind: 'step' };
    if (answer === 'b' || answer === 'block') {
      const message = (await readLine('[break] message for the client > '))?.trim();
      return message ? { kind: 'block', message } : undefined;
    }
    if (answer === 'e' || answer === 'edit') {
      const edited = await editJson(pause.payload);
      return edited ? { kind: 'edit', payload: edited } : undefined;
    }
    if (answer === 'a' || answer === 'answer') {
      const result = await editJson(payloadTemplate(pause.method, 'response').payload);
      return result ? { kind: 'answer', result } : undefined;
    }
    say(`[break] "${answer}"? type one of the letters in brackets`);
    return undefined;
  };

  const editJson = async (value: unknown): Promise<Record<string, unknown> | undefined> => {
    const dir = mkdtempSync(join(tmpdir(), 'ic-break-'));
    const file = join(dir, 'payload.json');
    try {
      writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
      lines.pause();
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn('sh', ['-c', `${options.editor} "$1"`, 'sh', file], { stdio: 'inherit' });
        child.on('exit', resolve);
        child.on('error', () => resolve(-1));
      });
      lines.resume();
      if (code !== 0) return void say(`[break] the editor (${options.editor}) exited with ${code}; nothing changed`);
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return void say('[break] expected a JSON object');
      return parsed as Record<string, unknown>;
    } catch (err) {
      return void say(`[break] ${(err as Error).message}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  const onPaused = (pause: PausedCall) => {
    queue.push(pause);
    void pump();
  };
  breakpoints.pauses.on('paused', onPaused);
  return () => {
    breakpoints.pauses.off('paused', onPaused);
    lines.close();
  };
}
