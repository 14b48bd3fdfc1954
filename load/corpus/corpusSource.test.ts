import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlannedRequest } from '../engine/RequestSource.js';
import { CORPUS_FORMAT } from './Corpus.js';
import type { Corpus } from './Corpus.js';
import { corpusSource, createSource } from './corpusSource.js';
import type { TxTag } from './corpusSource.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A corpus of `senders` lanes of `perSender` transactions (placeholder bytes: the source never decodes them). */
function corpusFile(name: string, senders: number, perSender: number, firstNonce = 0): string {
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
  const corpus: Corpus = {
    format: CORPUS_FORMAT,
    createdAt: new Date().toISOString(),
    tool: { name: 'chainrpc', version: 'test' },
    warning: 'test',
    chainId: '1',
    codec: 'chainrpc-tx-v1',
    profile: 'reference',
    method: 'chain_sendRawTransaction',
    keys: { derivation: 'test', seedSha256: '0'.repeat(64) },
    value: '1',
    fee: '1',
    recipients: ['ee'.repeat(32)],
    senders: Array.from({ length: senders }, (_, s) => ({
      index: s,
      address: hex(s, 64),
      txs: Array.from({ length: perSender }, (_, i) => ({ nonce: firstNonce + i, tx: hex(s * 1000 + i, 8), hash: hex(s * 1000 + i, 64) })),
    })),
  };
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(corpus));
  return path;
}

const tags = (r: PlannedRequest): TxTag[] => r.calls.map((c) => c.track as unknown as TxTag);

describe('corpus source', () => {
  it('hands out a lane\'s next nonce only after its previous request ended, round robin over lanes', async () => {
    const source = await createSource({ corpus: corpusFile('a.json', 3, 4, 7), batchSize: 1 }, { index: 0, count: 1 });
    const first = [source.next(), source.next(), source.next()] as PlannedRequest[];
    expect(first.map((r) => tags(r)[0]?.nonce)).toEqual([7, 7, 7]);
    expect(new Set(first.map((r) => tags(r)[0]?.sender)).size).toBe(3);
    // Every lane is busy: nothing ready, but not used up.
    expect(source.next()).toBeNull();
    source.onEnded?.(first[1] as PlannedRequest);
    const second = source.next() as PlannedRequest;
    expect(tags(second)[0]).toEqual({ ...tags(first[1] as PlannedRequest)[0], nonce: 8, hash: expect.any(String) as string });
    expect(source.next()).toBeNull();
    // The body is one JSON-RPC request carrying the corpus's transaction.
    const body = JSON.parse(second.body.toString()) as { jsonrpc: string; method: string; params: string[]; id: number };
    expect(body).toEqual({ jsonrpc: '2.0', id: second.calls[0]?.id, method: 'chain_sendRawTransaction', params: [expect.stringMatching(/^[0-9a-f]{8}$/) as string] });
    expect(second.batch).toBe(false);
  });

  it('keeps every lane in nonce order with never two of its requests in flight, to the last transaction, then answers undefined', async () => {
    const source = await createSource({ corpus: corpusFile('b.json', 5, 20), batchSize: 1 }, { index: 0, count: 1 });
    const inFlight: PlannedRequest[] = [];
    const seen = new Map<string, number[]>();
    const busyLanes = new Set<string>();
    let rounds = 0;
    for (let r = source.next(); r !== undefined; r = source.next()) {
      if (r === null || inFlight.length >= 3) {
        // End the oldest request (as a node answering in order would), or a random one.
        const i = rounds++ % 2 === 0 ? 0 : Math.floor(Math.random() * inFlight.length);
        const [ended] = inFlight.splice(i, 1);
        expect(ended).toBeDefined();
        for (const t of tags(ended as PlannedRequest)) busyLanes.delete(t.sender);
        source.onEnded?.(ended as PlannedRequest);
        if (r === null) continue;
      }
      for (const t of tags(r)) {
        expect(busyLanes.has(t.sender)).toBe(false);
        busyLanes.add(t.sender);
        seen.set(t.sender, [...(seen.get(t.sender) ?? []), t.nonce]);
      }
      inFlight.push(r);
    }
    expect(seen.size).toBe(5);
    for (const nonces of seen.values()) expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Used up even with requests still in flight: the engine stops sending and lets them end.
    expect(inFlight.length).toBeGreaterThan(0);
    expect(source.next()).toBeUndefined();
  });

  it('splits lanes across shares disjointly, thread i taking senders i, i + n, ...', async () => {
    const path = corpusFile('c.json', 7, 2);
    const lanesOf = async (index: number): Promise<string[]> => {
      const source = await createSource({ corpus: path, batchSize: 1 }, { index, count: 3 });
      const senders: string[] = [];
      for (let r = source.next(); r !== undefined; r = source.next()) {
        if (r === null) throw new Error('busy with every request ended');
        senders.push(...tags(r).map((t) => t.sender));
        source.onEnded?.(r);
      }
      return [...new Set(senders)];
    };
    const shares = await Promise.all([0, 1, 2].map(lanesOf));
    const hex = (n: number): string => n.toString(16).padStart(64, '0');
    expect(shares).toEqual([[hex(0), hex(3), hex(6)], [hex(1), hex(4)], [hex(2), hex(5)]]);
  });

  it('batches K transactions of K different senders, waits when fewer are ready, and sends the short batch at the end', async () => {
    const source = await createSource({ corpus: corpusFile('d.json', 5, 2), batchSize: 3 }, { index: 0, count: 1 });
    const a = source.next() as PlannedRequest;
    expect(a.batch).toBe(true);
    expect(new Set(tags(a).map((t) => t.sender)).size).toBe(3);
    const body = JSON.parse(a.body.toString()) as { id: number; params: string[] }[];
    expect(body.map((b) => b.id)).toEqual(a.calls.map((c) => c.id));
    // Two senders ready, three busy, five with transactions left: wait for a full batch.
    expect(source.next()).toBeNull();
    source.onEnded?.(a);
    const b = source.next() as PlannedRequest;
    expect(tags(b).map((t) => t.nonce)).toEqual([0, 0, 1]);
    const c = source.next();
    expect(c).toBeNull(); // two ready, four senders with transactions left
    source.onEnded?.(b);
    const d = source.next() as PlannedRequest;
    expect(tags(d).map((t) => t.nonce)).toEqual([1, 1, 1]);
    // One sender has a transaction left: the last batch is short.
    source.onEnded?.(d);
    const e = source.next() as PlannedRequest;
    expect(tags(e).length).toBe(1);
    expect(source.next()).toBeUndefined();
  });

  it('resumes each lane after the nonces sent before (an interleaved run\'s next segment), never sending one twice', async () => {
    const path = corpusFile('resume.json', 3, 4, 7);
    const sender = (i: number): string => i.toString(16).padStart(64, '0');
    // Sender 0 sent nonces 7 and 8, sender 1 all four, sender 2 nothing yet.
    const source = await createSource({ corpus: path, batchSize: 1, resumeAt: { [sender(0)]: 9, [sender(1)]: 11 } }, { index: 0, count: 1 });
    const sent: TxTag[] = [];
    for (let r = source.next(); r !== undefined; r = source.next()) {
      if (r === null) throw new Error('every lane busy with none in flight');
      sent.push(...tags(r));
      source.onEnded?.(r);
    }
    expect(sent.filter((t) => t.sender === sender(0)).map((t) => t.nonce)).toEqual([9, 10]);
    expect(sent.filter((t) => t.sender === sender(1))).toEqual([]);
    expect(sent.filter((t) => t.sender === sender(2)).map((t) => t.nonce)).toEqual([7, 8, 9, 10]);
  });

  it('refuses bad options with what to fix', async () => {
    await expect(Promise.resolve().then(() => createSource({ corpus: corpusFile('e.json', 1, 1), batchSize: 0 }, { index: 0, count: 1 }))).rejects.toThrow(/batchSize must be a positive integer/);
    await expect(Promise.resolve().then(() => createSource({ batchSize: 1 }, { index: 0, count: 1 }))).rejects.toThrow(/`corpus` must name the corpus file/);
  });
});

describe('corpus source: a lane after a failed send (resync)', () => {
  const accepted = { kind: 'result' as const, result: 'h' };
  const refused = { kind: 'error' as const, code: -32000, message: 'nonce gap' };
  const lost = { kind: 'unanswered' as const, reason: 'transport: ECONNREFUSED' };
  let clock = 0;
  const resync = { accountMethod: 'chain_getAccount', nonceOf: (r: unknown) => (typeof r === 'object' && r !== null && 'nonce' in r ? Number((r as { nonce: string }).nonce) : undefined), settleMs: 1_000, retryMs: 100, now: () => clock };
  const account = (nonce: number) => ({ kind: 'result' as const, result: { balance: '1', nonce: String(nonce) } });
  const oneLane = (name: string) => corpusSource({ corpus: corpusFile(name, 1, 6), batchSize: 1 }, { index: 0, count: 1 }, resync);
  const send = (source: ReturnType<typeof oneLane>, outcome: Parameters<ReturnType<typeof oneLane>['onEnded']>[1]) => {
    const r = source.next();
    if (r === null || r === undefined) throw new Error('no request');
    source.onEnded(r, outcome);
    return r;
  };
  const nonceSent = (r: PlannedRequest) => tags(r)[0]?.nonce;

  it('stops at a refusal, reads the sender\'s nonce, and sends again from the chain\'s nonce: nothing the chain has', () => {
    clock = 0;
    const source = oneLane('r1.json');
    send(source, [accepted]); // nonce 0
    send(source, [accepted]); // nonce 1
    const failed = send(source, [refused]); // nonce 2
    expect(nonceSent(failed)).toBe(2);
    const read = source.next();
    expect(read?.calls[0]?.method).toBe('chain_getAccount');
    expect(read?.body.toString()).toContain('"params":["' + '0'.repeat(64) + '"]');
    expect(source.next()).toBeNull(); // the lane waits for its read
    source.onEnded(read as PlannedRequest, [account(2)]); // the chain waits for exactly nonce 2
    expect(nonceSent(send(source, [accepted]))).toBe(2);
    expect(source.ledger()).toEqual({ resyncs: 1, resent: 1, skipped: 0 });
  });

  it('goes on when the chain shows the failed send was taken after all; reads again while the node does not answer', () => {
    clock = 0;
    const source = oneLane('r2.json');
    send(source, [accepted]);
    send(source, [lost]); // nonce 1, no answer
    const down = source.next() as PlannedRequest;
    source.onEnded(down, [lost]); // the read gets no answer either
    expect(source.next()).toBeNull();
    clock = 150;
    const again = source.next() as PlannedRequest;
    expect(again.calls[0]?.method).toBe('chain_getAccount');
    source.onEnded(again, [account(2)]); // the chain has nonce 1 after all
    expect(nonceSent(send(source, [accepted]))).toBe(2);
    expect(source.ledger()).toEqual({ resyncs: 1, resent: 0, skipped: 0 });
  });

  it('waits for earlier accepted ones to land, then sends them again once they count as lost', () => {
    clock = 0;
    const source = oneLane('r3.json');
    send(source, [accepted]); // 0
    send(source, [accepted]); // 1
    send(source, [accepted]); // 2
    send(source, [refused]); // 3: refused, a gap: 1 and 2 were lost with a node
    const first = source.next() as PlannedRequest;
    source.onEnded(first, [account(1)]);
    expect(source.next()).toBeNull(); // they may still land
    clock = 1_200; // past settleMs
    const second = source.next() as PlannedRequest;
    source.onEnded(second, [account(1)]);
    expect([1, 2, 3, 4].map(() => nonceSent(send(source, [accepted])))).toEqual([1, 2, 3, 4]);
    expect(source.ledger()).toEqual({ resyncs: 1, resent: 3, skipped: 0 });
  });

  it('without outcomes (a request abandoned at the end) or without resync, a lane just goes on', () => {
    const plain = corpusSource({ corpus: corpusFile('r4.json', 1, 3), batchSize: 1 }, { index: 0, count: 1 });
    const r = plain.next() as PlannedRequest;
    plain.onEnded(r, [refused]);
    expect(nonceSent(plain.next() as PlannedRequest)).toBe(1);
    expect(plain.ledger()).toEqual({ resyncs: 0, resent: 0, skipped: 0 });
  });
});
