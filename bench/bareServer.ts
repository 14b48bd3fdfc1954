/**
 * The baseline of the reference node's single-call benchmarks: a bare node:http server, run as its own
 * process, that reads each request body and answers a constant JSON-RPC response. It does no parsing,
 * no validation and no dispatch, so a node measured against it is measured for its whole JSON-RPC layer.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export const BARE_SERVER_SOURCE = `
const http = require('node:http');
const body = '{"jsonrpc":"2.0","id":1,"result":42}';
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

/**
 * Starts a server process and resolves with the first http:// URL it prints. `launcher` runs the
 * command under another program (e.g. valgrind); `args` are node's arguments.
 */
export function startServerProcess(args: readonly string[], launcher: readonly string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const [command, ...rest] = launcher.length > 0 ? [...launcher, process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(command as string, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer): void => {
      output += d.toString();
      const url = /http:\/\/[0-9.]+:\d+/.exec(output)?.[0];
      if (url !== undefined) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ url, child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${command ?? 'server'} exited with ${String(code)} before printing its URL`)));
  });
}

/** The bare baseline, optionally under a launcher. */
export function startBare(launcher: readonly string[] = []): Promise<{ url: string; child: ChildProcess }> {
  return startServerProcess(['-e', BARE_SERVER_SOURCE], launcher);
}

/** A server of test/support/loadServers.ts, as its own process: its start function `name`, called with `options`. */
function startLoadServerProcess(name: string, options: Record<string, number>): Promise<{ url: string; child: ChildProcess }> {
  return startServerProcess([
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `const { ${name} } = await import(${JSON.stringify(new URL('../test/support/loadServers.ts', import.meta.url).href)});
     const s = await ${name}(${JSON.stringify(options)});
     console.log(s.url);`,
  ]);
}

/** The stall server of test/support/loadServers.ts (stalls `stallMs` at the start of every `periodMs`), as its own process. */
export function startStallProcess(periodMs: number, stallMs: number): Promise<{ url: string; child: ChildProcess }> {
  return startLoadServerProcess('startStallServer', { periodMs, stallMs });
}

/** The delay server of test/support/loadServers.ts (every answer after `delayMs`), as its own process. */
export function startDelayProcess(delayMs: number): Promise<{ url: string; child: ChildProcess }> {
  return startLoadServerProcess('startDelayServer', { delayMs });
}
