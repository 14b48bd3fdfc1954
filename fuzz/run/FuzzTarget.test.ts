/**
 * The slow oracle's bound follows the median of a node's last answers (FuzzTarget.answered); the gate that gives a
 * re-check of a slow finding the node alone; a liveness probe that waits for a node still busy.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { FuzzTarget, NodeGate } from './FuzzTarget.js';

const targets: FuzzTarget[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

function target(): FuzzTarget {
  // Nothing is sent: the client connects on its first call only.
  const t = new FuzzTarget('http://127.0.0.1:9', referenceProfile(), 2);
  targets.push(t);
  return t;
}

describe('FuzzTarget: the median answer time', () => {
  it('is the median of the answers kept, re-read every 64 answers, failures left out', () => {
    const t = target();
    expect(t.medianMs).toBe(0);
    t.answered({ status: 200, text: '', ms: 7 });
    expect(t.medianMs).toBe(7);
    // 64 more answers (1..64 ms, shuffled), failures of 5 s in between: the 64th of them (the 65th answer) re-reads it.
    const times = Array.from({ length: 64 }, (_, i) => ((i * 37) % 64) + 1);
    for (const ms of times.slice(0, 63)) {
      t.answered({ failure: { code: 'TIMEOUT', message: 'x' }, ms: 5_000 });
      t.answered({ status: 200, text: '', ms });
    }
    expect(t.medianMs).toBe(7);
    t.answered({ status: 200, text: '', ms: times[63] ?? 0 });
    // Kept: 7 and 1..64 (65 values, no failure's 5 s among them): the median is the 33rd smallest, 32.
    expect(t.medianMs).toBe(32);
    t.answered({ status: 200, text: '', ms: 100 });
    expect(t.medianMs).toBe(32);
  });

  it('keeps the last 1,024 answers only: a node that slowed down moves its bound', () => {
    const t = target();
    for (let i = 0; i < 1_024; i++) t.answered({ status: 200, text: '', ms: 1 });
    for (let i = 0; i < 1_024; i++) t.answered({ status: 200, text: '', ms: 50 });
    expect(t.medianMs).toBe(50);
  });
});

describe('NodeGate', () => {
  it('lets shared work overlap, and gives alone work the node with nothing else in flight', async () => {
    const gate = new NodeGate();
    const log: string[] = [];
    const work = (name: string, ms: number) => async (): Promise<void> => {
      log.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name}-`);
    };
    const a = gate.shared(work('a', 30));
    const b = gate.shared(work('b', 10));
    const alone = gate.alone(work('X', 20));
    // Asked for after the alone work: waits for it, though it is shared.
    const c = gate.shared(work('c', 5));
    await Promise.all([a, b, alone, c]);
    expect(log.slice(0, 4).sort()).toEqual(['a+', 'a-', 'b+', 'b-']);
    expect(log.slice(4)).toEqual(['X+', 'X-', 'c+', 'c-']);
  });
});

describe('FuzzTarget: liveness', () => {
  it('gives a node that takes the probe but is still busy more tries before saying it stopped', async () => {
    // A node busy for 1.2 s (an expensive request sent before), then answering: its first probes time out.
    const start = performance.now();
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        const wait = Math.max(0, 1_200 - (performance.now() - start));
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":5}'), wait);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const t = new FuzzTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, referenceProfile(), 4);
    targets.push(t);
    try {
      expect(await t.alive({ timeoutMs: 300, retryAfterMs: 50, busyTries: 4 })).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    // Gone (the connection refused): no more tries than two.
    const gone = target();
    const t0 = performance.now();
    expect(await gone.alive({ timeoutMs: 300, retryAfterMs: 50, busyTries: 4 })).toBe(false);
    expect(performance.now() - t0).toBeLessThan(1_000);
  });
});
