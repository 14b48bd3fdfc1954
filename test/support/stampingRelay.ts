/**
 * A TCP relay in front of a node that stamps when each HTTP request's first byte arrives and keeps its body: the
 * ground truth of when a load generator's requests reached the node. It runs in a small process of its own (a
 * test runner's heap collects for tens of milliseconds at a time, which would stamp requests late), passes
 * every byte on unread, and parses no more than the Content-Length framing the stamps need: one request at a
 * time per connection, as a load engine sends them.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface StampedRequest {
  /** ms on the relay's clock when the request's first byte arrived. */
  atMs: number;
  body: string;
}

export interface StampingRelay {
  url: string;
  /** Stops the relay; resolves with every request it saw, in order of arrival. */
  stop(): Promise<StampedRequest[]>;
}

const RELAY = `
const net = require('node:net');
const [host, port] = process.argv.slice(1);
const requests = [];
const HEAD_END = Buffer.from('\\r\\n\\r\\n');
const server = net.createServer((client) => {
  client.setNoDelay(true);
  const node = net.connect({ host, port: Number(port), noDelay: true });
  let pending = Buffer.alloc(0);
  let startedMs = 0;
  client.on('data', (chunk) => {
    const now = performance.now();
    node.write(chunk);
    if (pending.length === 0) startedMs = now;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const headEnd = pending.indexOf(HEAD_END);
      if (headEnd === -1) return;
      const length = Number((/\\r\\ncontent-length:\\s*(\\d+)/i.exec(pending.subarray(0, headEnd).toString('latin1')) || [])[1] || 0);
      const end = headEnd + 4 + length;
      if (pending.length < end) return;
      requests.push({ atMs: startedMs, body: pending.subarray(headEnd + 4, end).toString('utf8') });
      pending = pending.subarray(end);
      startedMs = now;
      if (pending.length === 0) return;
    }
  });
  node.on('data', (chunk) => client.write(chunk));
  const end = () => { client.destroy(); node.destroy(); };
  for (const s of [client, node]) { s.on('close', end); s.on('error', end); }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => { process.stdout.write(JSON.stringify(requests) + '\\n'); process.exit(0); });
process.stdin.resume();
`;

/** Starts the relay on a free loopback port, passing every byte to `upstream` (http://host:port) and back. */
export async function startStampingRelay(upstream: string): Promise<StampingRelay> {
  const target = new URL(upstream);
  const child = spawn(process.execPath, ['-e', RELAY, target.hostname, target.port], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  while (!out.includes('\n')) await once(child.stdout, 'data');
  const port = Number(out.split('\n')[0]);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const closed = once(child, 'close');
      child.stdin.end();
      await closed;
      return JSON.parse(out.split('\n')[1] ?? '[]') as StampedRequest[];
    },
  };
}
