// A stand-in OpenTelemetry collector for the otel bench: an OTLP/HTTP endpoint on 127.0.0.1 that reads every
// export request whole and answers 200 with an empty ExportServiceResponse, as a collector does. Its own
// process, so that receiving costs neither the gateway nor the measuring client. Prints its URL, then counts.
import { createServer } from 'node:http';

let requests = 0;
let bytes = 0;
const server = createServer((req, res) => {
  req.on('data', (c) => (bytes += c.length));
  req.on('end', () => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => {
  process.stderr.write(`otlp-sink: ${requests} requests, ${bytes} bytes\n`);
  process.exit(0);
});
