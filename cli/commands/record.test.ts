import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../CliError.js';
import { record, recordStatusLine } from './record.js';

const listening = async (): Promise<{ server: Server; port: number }> => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0 };
};

describe('chainrpc record: the progress line', () => {
  it('says how long, how many exchanges and how fast lately, and the capture size', () => {
    expect(recordStatusLine(12_000, 1_234, 102.6, 2_202_009, 1_234, false)).toBe('record: 12.0 s, 1,234 exchange(s) (103/s), capture 2.1 MiB');
    expect(recordStatusLine(500, 3, 6, 900, 3, false)).toBe('record: 500 ms, 3 exchange(s) (6/s), capture 0.9 KiB');
  });

  it('says when the size bound stopped the recording, and how much still passed on', () => {
    expect(recordStatusLine(60_000, 4_000, 0, 1_073_741_000, 9_000, true)).toMatch(/recording stopped at --max-size, 9,000 passed on$/);
  });
});

describe('chainrpc record: a port already in use', () => {
  it('is a usage error (exit 2) with nothing written: a retry with the same --out is not refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-record-busy-'));
    const upstream = await listening();
    const busy = await listening();
    try {
      const out = join(dir, 'capture.ndjson');
      const run = record.run(['--upstream', `http://127.0.0.1:${upstream.port}`, '--out', out, '--listen', String(busy.port)]);
      await expect(run).rejects.toThrow(CliError);
      await expect(run).rejects.toMatchObject({ kind: 'usage' });
      await expect(run).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
      expect(existsSync(out)).toBe(false);
    } finally {
      upstream.server.close();
      busy.server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
