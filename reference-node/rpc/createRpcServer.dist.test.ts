// The HTTP layer's memory, measured in a server process of its own (from the build, with --expose-gc) so that
// its heap can be read after a full collection. `npm test` builds first; alone: npm run build && npx vitest run <this file>.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../core/paths.js';
import { rawStatus } from '../../test/support/rpc.js';

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('memory', () => {
  const SERVER = `
    const { createRpcServer } = await import(${JSON.stringify(pathToFileURL(join(packageRoot, 'dist/reference-node/rpc/createRpcServer.js')).href)});
    const s = createRpcServer({
      methods: {
        test_size: (params) => String(params[0]).length,
        test_memory: () => {
          globalThis.gc(); globalThis.gc();
          const { arrayBuffers, heapUsed } = process.memoryUsage();
          return { arrayBuffers, heapUsed };
        },
      },
      maxBodyBytes: 2 * 1024 * 1024,
    });
    console.log((await s.listen(0)).url);`;

  it('idle keep-alive connections do not hold the bodies they sent', async () => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const sockets: Socket[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`server exited ${String(code)}`)));
      });
      const port = Number(new URL(url).port);
      const MIB = 1024 * 1024;
      const body = `{"jsonrpc":"2.0","method":"test_size","params":["${'a'.repeat(MIB)}"],"id":1}`;
      // 40 connections each send a 1 MiB body, get their answer, and stay open (keep-alive).
      for (let i = 0; i < 40; i++) {
        const socket = await openSocket(port);
        sockets.push(socket);
        const answered = new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('latin1');
            if (text.endsWith(`"result":${MIB}}`)) resolve(text);
          });
        });
        socket.write(`POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        expect(rawStatus(await answered)).toBe(200);
      }
      const answer = await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"test_memory","params":[],"id":1}' });
      const { result: memory } = (await answer.json()) as { result: { arrayBuffers: number; heapUsed: number } };
      // Holding the bodies would be 40 MiB of buffers (and 40 MiB of strings in the heap).
      expect(memory.arrayBuffers).toBeLessThan(12 * MIB);
      expect(memory.heapUsed).toBeLessThan(40 * MIB);
    } finally {
      for (const socket of sockets) socket.destroy();
      child.kill('SIGKILL');
    }
  }, 60_000);
});
