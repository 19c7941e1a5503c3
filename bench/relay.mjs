#!/usr/bin/env node
// The floor for any proxy hop: a process that relays newline-delimited JSON-RPC between its stdio and a
// child's, parsing and re-serialising every line and nothing else. `node bench/relay.mjs <cmd> [args...]`.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function pump(input, output) {
  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (text) => {
    buffer += text;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) output.write(`${JSON.stringify(JSON.parse(line))}\n`);
    }
  });
}

pump(process.stdin, child.stdin);
pump(child.stdout, process.stdout);
process.stdin.on('end', () => child.kill());
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
