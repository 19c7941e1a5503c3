// Messages view over 1,000,000 recorded messages, measured two ways side by side with a 1,000-message
// database (the ratios show the view does not slow down with the size of the history):
// - the store queries the view runs (listMessages, listMessageSessions, messageMethods: the code behind the
//   messages.* procedures), in process, median of 5 after a warm-up;
// - in Chromium against web mode (like the Traffic figures): first rows on screen after opening the view,
//   and the time from a filter change to the matching rows on screen;
// - what capture costs a gateway: sequential tools/call over stdio through the gateway with the sample
//   interceptors, recording to SQLite, captureMessages on vs off, rounds alternated in one run.
//
//   node --import tsx bench/messages.ts [--rows N] [--db FILE] [--priority] [--capture-only]     (npm run bench -- messages)
// BENCH_MESSAGES_ROUNDS sets the capture on/off rounds (default 3).
// --priority renices web mode and Chromium to -10 (as bench/traffic-ui.ts does), for a machine shared with other work.
// The big database is generated once with scripts/generate-messages.ts and cached in the temp folder.
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { generateMessages, MESSAGE_GATEWAY } from '../scripts/generate-messages';
import { LATEST_VERSION, listMessages, listMessageSessions, messageMethods, openStore, type MessageFilter } from '../src/main/history/sqlite';
import { percentile, printTable } from './stats';
import { prioritize, setRaisePriority, startWeb } from './traffic-ui';
import { gatewayConfig, measure, type Variant } from './gateway';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function bigDatabase(rows: number, explicit?: string): string {
  if (explicit) return explicit;
  const path = join(tmpdir(), `ic-bench-messages-${rows}-s${LATEST_VERSION}.db`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  process.stdout.write(`generating ${rows.toLocaleString('en-US')} messages into ${path} (cached for later runs)...\n`);
  const t0 = Date.now();
  generateMessages(partial, { count: rows, onProgress: (done) => process.stdout.write(`\r  ${done.toLocaleString('en-US')}`) });
  renameSync(partial, path);
  process.stdout.write(`\n  done in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  return path;
}

type Query = [name: string, run: (db: Parameters<typeof listMessages>[0], session: string) => unknown];

const QUERIES: Query[] = [
  ['first page, all sessions', (db) => listMessages(db, { gateway: MESSAGE_GATEWAY }, { limit: 200 })],
  ['first page, one session', (db, session) => listMessages(db, { gateway: MESSAGE_GATEWAY, session }, { limit: 200 })],
  ['sessions list', (db) => listMessageSessions(db, MESSAGE_GATEWAY)],
  ['method suggestions', (db) => messageMethods(db, MESSAGE_GATEWAY)],
  ...(
    [
      ['side = interceptor', { side: 'interceptor' }],
      ['kind = error', { kind: 'error' }],
      ['direction = in', { direction: 'in' }],
      ['method = notifications/progress', { method: 'notifications/progress' }],
      ['method = tools/call', { method: 'tools/call' }],
      ['text search, common word', { search: 'kaka' }],
      ['text search, no match (one bounded step)', { search: 'no-such-text-anywhere' }],
      ['kind = connect-error, none recorded (one bounded step)', { kind: 'connect-error' }],
    ] as [string, Partial<MessageFilter>][]
  ).flatMap(([name, f]): Query[] => [
    [`${name}, all sessions`, (db) => listMessages(db, { gateway: MESSAGE_GATEWAY, ...f }, { limit: 200 })],
    [`${name}, one session`, (db, session) => listMessages(db, { gateway: MESSAGE_GATEWAY, session, ...f }, { limit: 200 })],
  ]),
];

function storeTimings(path: string): Map<string, number> {
  const store = openStore(path, { readonly: true, create: false });
  try {
    const sessions = listMessageSessions(store.db, MESSAGE_GATEWAY);
    const session = sessions.find((s) => s.sessionId !== null)!.sessionId!;
    const out = new Map<string, number>();
    for (const [name, run] of QUERIES) {
      run(store.db, session);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        run(store.db, session);
        times.push(performance.now() - t0);
      }
      out.set(name, percentile(times, 50));
    }
    return out;
  } finally {
    store.close();
  }
}

let priority = false;

const PROBES = () => {
  const w = window as unknown as Record<string, unknown>;
  new MutationObserver(() => {
    if (w.__firstRows === undefined && document.querySelector('.mrow[data-id]')) w.__firstRows = performance.now();
  }).observe(document, { childList: true, subtree: true });
};

async function timeFirstRows(page: Page, url: string): Promise<number> {
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.addInitScript(PROBES);
  await page.goto(`${url}#/messages/${MESSAGE_GATEWAY}`);
  await page.waitForFunction(() => (window as unknown as Record<string, unknown>).__firstRows !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => (window as unknown as Record<string, number>).__firstRows ?? Number.NaN);
}

/** ms from a filter's change (a select, or Enter in the method field) to every visible row matching it. */
async function timeFilter(page: Page, label: string, value: string, attr: string): Promise<number> {
  await page.evaluate(
    ({ label, value, attr }) => {
      const w = window as unknown as Record<string, unknown>;
      const el = document.querySelector<HTMLElement>(`[aria-label="${label}"]`)!;
      w.__filterMs = undefined;
      const start = () => {
        const t0 = performance.now();
        const check = () => {
          const rows = [...document.querySelectorAll<HTMLElement>('.mrow[data-id]')];
          const ok = (r: HTMLElement) => (attr === 'method' ? r.querySelector('.c-method')?.textContent === value : r.dataset[attr] === value);
          if (!document.querySelector('.ttable.stale') && rows.length > 0 && rows.every(ok)) w.__filterMs = performance.now() - t0;
          else requestAnimationFrame(check);
        };
        check();
      };
      if (el.tagName === 'SELECT') el.addEventListener('change', start, { once: true, capture: true });
      else el.addEventListener('keydown', (e) => e.key === 'Enter' && start(), { once: true, capture: true });
    },
    { label, value, attr },
  );
  const control = page.getByLabel(label, { exact: true });
  if (label === 'Method') {
    await control.fill(value);
    await control.press('Enter');
  } else await control.selectOption(value);
  await page.waitForFunction(() => (window as unknown as Record<string, unknown>).__filterMs !== undefined, undefined, { timeout: 60_000 });
  const ms = await page.evaluate(() => (window as unknown as Record<string, number>).__filterMs!);
  if (label === 'Method') {
    await control.fill('');
    await control.press('Enter');
  } else await control.selectOption('');
  await page.waitForFunction(() => !document.querySelector('.ttable.stale'));
  return ms;
}

const UI_FILTERS: [string, string, string, string][] = [
  ['side = interceptor', 'Side', 'interceptor', 'side'],
  ['kind = error', 'Kind', 'error', 'kind'],
  ['direction = in', 'Direction', 'in', 'direction'],
  ['method = notifications/progress', 'Method', 'notifications/progress', 'method'],
];

async function uiTimings(path: string): Promise<Map<string, number>> {
  const web = await startWeb(path);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    if (priority) prioritize(process.pid);
    const out = new Map<string, number>();
    out.set('first rows on screen: first open', await timeFirstRows(await context.newPage(), web.url));
    const page = await context.newPage();
    out.set('first rows on screen: later open', await timeFirstRows(page, web.url));
    for (let pass = 0; pass < 2; pass++) {
      for (const [name, label, value, attr] of UI_FILTERS) {
        out.set(`filter change: ${name} (${pass === 0 ? 'first use' : 'again'})`, await timeFilter(page, label, value, attr));
      }
    }
    return out;
  } finally {
    await browser.close();
    await web.stop();
  }
}

/** Throughput and gateway CPU per call with message capture on and off (everything else equal). */
async function captureCost(): Promise<void> {
  const rounds = Number(process.env.BENCH_MESSAGES_ROUNDS ?? 3);
  const variant = (capture: boolean): Variant => {
    const file = gatewayConfig(true);
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...config, captureMessages: capture }));
    const db = join(mkdtempSync(join(tmpdir(), 'ic-bench-capture-')), 'history.db');
    const name = `gateway, 3 sample interceptors, recording, capture ${capture ? 'on' : 'off'}`;
    return { name, args: [join(root, 'out/cli/index.js'), 'gateway', '--config', file, '--db', db, '--quiet'], samples: [], totalMs: 0, calls: 0 };
  };
  const off = variant(false);
  const on = variant(true);
  for (let round = 0; round < rounds; round++) for (const v of round % 2 === 0 ? [off, on] : [on, off]) await measure(v);
  const tput = (v: Variant) => (v.calls / v.totalMs) * 1000;
  const cpu = (v: Variant) => (v.cpuMs ?? NaN) / v.calls;
  printTable(
    `What capture costs: sequential tools/call (echo) over stdio, ${rounds} alternated rounds`,
    ['variant', 'p50', 'calls/s', 'gateway CPU per call'],
    [off, on].map((v) => [v.name, `${percentile(v.samples, 50).toFixed(2)} ms`, tput(v).toFixed(0), `${cpu(v).toFixed(2)} ms`]),
  );
  console.log(`capture on vs off: throughput ${(tput(on) / tput(off)).toFixed(2)}×, gateway CPU per call ${(cpu(on) / cpu(off)).toFixed(2)}×`);
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: 'string', default: '1000000' },
      db: { type: 'string' },
      priority: { type: 'boolean', default: false },
      'capture-only': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values['capture-only']) return captureCost();
  priority = values.priority;
  setRaisePriority(priority);
  const rows = Number(values.rows);
  const big = bigDatabase(rows, values.db);
  const smallDir = mkdtempSync(join(tmpdir(), 'ic-bench-messages-small-'));
  const small = join(smallDir, 'history.db');
  generateMessages(small, { count: 1000 });
  const fmt = (ms: number) => (ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`);
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : '—');
  const label = (n: number) => `${n.toLocaleString('en-US')} messages`;
  try {
    const s = storeTimings(small);
    const b = storeTimings(big);
    printTable(
      'Messages view: the store queries behind messages.* (median of 5)',
      ['query (page of 200)', label(1000), label(rows), 'ratio big/small'],
      [...b.keys()].map((k) => [k, fmt(s.get(k)!), fmt(b.get(k)!), ratio(b.get(k)!, s.get(k)!)]),
    );
    if (!existsSync(join(root, 'out/cli/index.js')) || !existsSync(join(root, 'out/renderer/index.html')) || !existsSync(CHROMIUM)) {
      console.log('SKIPPED the Chromium part: it needs `npm run build` and /usr/bin/chromium.');
    } else {
      const su = await uiTimings(small);
      const bu = await uiTimings(big);
      printTable(
        'Messages screen in Chromium (web mode), page performance timings',
        ['measure', label(1000), label(rows), 'ratio big/small', 'target (big)'],
        [...bu.keys()].map((k) => [
          k,
          fmt(su.get(k)!),
          fmt(bu.get(k)!),
          ratio(bu.get(k)!, su.get(k)!),
          k.includes('first open') ? '—' : k.startsWith('first rows') ? '< 1000 ms' : '< 150 ms',
        ]),
      );
    }
    if (existsSync(join(root, 'out/cli/index.js'))) await captureCost();
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)${priority ? '; web mode and Chromium at nice -10' : ''}; database: ${big}`,
    );
  } finally {
    rmSync(smallDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
