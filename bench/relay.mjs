#!/usr/bin/env node
// The floor for any proxy hop: a process that relays newline-delimited JSON-RPC between its stdio and a
// child's, parsing and re-serialising every line and nothing else. `node bench/relay.mjs <cmd> [args...]`.
//
// `--round-trips <request>,<response>` makes it the floor of a chain over stdio instead: before forwarding
// each request it makes <request> sequential round trips to a second child (this file with `--echo`, which
// answers each line with its params), and <response> more before returning each response, every one
// carrying the message's params or result as an `interceptor/invoke` would carry its payload. No chain
// logic, no recording: what is left is the cost of the hops themselves (the samples chain over stdio has
// three sequential round trips before the backend and one after it).
import { spawn } from 'node:child_process';

/** Calls `onLine` with every complete line of a stream. */
function lines(input, onLine) {
  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (text) => {
    buffer += text;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) onLine(line);
    }
  });
}

if (process.argv[2] === '--echo') {
  lines(process.stdin, (line) => {
    const m = JSON.parse(line);
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { type: 'mutation', modified: false, payload: m.params.payload } })}\n`);
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  let argv = process.argv.slice(2);
  let roundTrips = [0, 0];
  if (argv[0] === '--round-trips') {
    roundTrips = argv[1].split(',').map(Number);
    argv = argv.slice(2);
  }
  const [command, ...args] = argv;
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const peer =
    roundTrips[0] + roundTrips[1] > 0
      ? spawn(process.execPath, [new URL(import.meta.url).pathname, '--echo'], { stdio: ['pipe', 'pipe', 'inherit'] })
      : undefined;
  const waiting = new Map();
  let nextId = 1;
  let stopping = false;
  // A round trip to a dead echo process would never end: stop the whole relay instead of hanging the bench.
  peer?.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`relay: the echo process ended (${signal ?? code}); stopping\n`);
    child.kill();
    process.exit(1);
  });
  if (peer)
    lines(peer.stdout, (line) => {
      const m = JSON.parse(line);
      waiting.get(m.id)?.(m.result);
      waiting.delete(m.id);
    });
  const roundTrip = (payload) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      peer.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'interceptor/invoke', params: { name: 'floor', event: 'x', phase: 'request', payload } })}\n`,
      );
    });
  /** Relays lines in order; a line waits for its round trips (and for the lines before it). */
  const pump = (input, output, trips, payloadOf) => {
    let queue = Promise.resolve();
    lines(input, (line) => {
      const message = JSON.parse(line);
      if (trips === 0) return void output.write(`${JSON.stringify(message)}\n`);
      queue = queue.then(async () => {
        for (let i = 0; i < trips; i++) await roundTrip(payloadOf(message) ?? null);
        output.write(`${JSON.stringify(message)}\n`);
      });
    });
  };
  pump(process.stdin, child.stdin, roundTrips[0], (m) => m.params);
  pump(child.stdout, process.stdout, roundTrips[1], (m) => m.result);
  process.stdin.on('end', () => {
    stopping = true;
    child.kill();
    peer?.kill();
  });
  child.on('exit', (code) => {
    stopping = true;
    peer?.kill();
    process.exit(code ?? 0);
  });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      stopping = true;
      peer?.kill(signal);
      child.kill(signal);
    });
}
