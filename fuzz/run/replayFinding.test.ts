/**
 * `chainrpc fuzz --replay` against small nodes on loopback: a liveness finding whose replay kills the node
 * again shows again (the run's probe after the case, not "check it yourself"), and no longer shows only on a
 * node that answers the probe; a case that gets no answer at all is never "no longer shows"; a node that does
 * not answer before the replay is said (exit 3), not judged; an id folded into another finding replays that
 * finding; and the report's profile file is read back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { Finding, OracleName } from '../model.js';
import { foundCase } from './foundCase.js';
import { FuzzReplayUnreachableError, readFuzzReport, replayFinding, type FuzzReportRead } from './replayFinding.js';

/** What a test node does with a request whose body holds its trigger. */
type Blow = 'dies' | 'drops' | 'answers' | 'dies-after-answering' | 'no-jsonrpc';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

/** A node that answers every call with a result, echoing its id; a body holding TRIGGER it `blow`s: dies (for good), drops (that request only) or answers. */
async function node(blow: Blow): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (body.includes(TRIGGER) && blow === 'dies-after-answering') {
        // The answer goes out, then the node dies (an exception thrown once the answer was written).
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"result":"0x2a"}', () => {
          server.close();
          server.closeAllConnections();
        });
        return;
      }
      if (body.includes(TRIGGER) && blow !== 'answers' && blow !== 'no-jsonrpc') {
        req.socket.destroy();
        if (blow === 'dies') {
          server.close();
          server.closeAllConnections();
        }
        return;
      }
      const id = /"id":("[^"]*"|\d+)/.exec(body)?.[1] ?? 'null';
      // 'no-jsonrpc': the id echoed right, the "jsonrpc" member left out (another envelope violation).
      res.writeHead(200, { 'content-type': 'application/json' }).end(body.includes(TRIGGER) && blow === 'no-jsonrpc' ? `{"id":${id},"result":"0x2a"}` : `{"jsonrpc":"2.0","id":${id},"result":"0x2a"}`);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const TRIGGER = 'boom';
const BODY = `{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":"${TRIGGER}"}`;

function finding(oracle: OracleName, url: string, extra: Partial<Finding> = {}): Finding {
  const c = { rule: 'envelope/id-type', family: 'envelope' as const, method: 'chain_blockNumber', seed: 1, index: 4, title: 'an id', risky: true, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(BODY) } };
  const found = foundCase(c, { failure: { code: 'REFUSED', message: 'closed the connection without answering' }, ms: 3 }, `${url}/rpc`);
  return { id: 'F1', signature: `${url} ${oracle} chain_blockNumber envelope/id-type`, oracle, url, method: 'chain_blockNumber', rule: c.rule, message: 'the node stopped answering after this request', source: 'liveness', original: found, minimal: found, count: 1, recheck: 'not-rechecked', atMs: 10, ...extra };
}

async function replay(report: FuzzReportRead, id = 'F1'): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await replayFinding({ reportPath: 'report.json', report, findingId: id, profile: referenceProfile(), timeoutMs: 1_000, out: (l) => lines.push(l) });
  return { code, lines };
}

const now = (lines: readonly string[]): string => lines.find((l) => l.startsWith('now: ')) ?? '';

describe('replayFinding', () => {
  it('a liveness finding whose replay kills the node again: shows again (exit 1)', async () => {
    const url = await node('dies');
    const r = await replay({ findings: [finding('liveness', url)] });
    expect(now(r.lines)).toMatch(/^now: SHOWS AGAIN: the node stopped answering after this request/);
    expect(r.code).toBe(1);
  });

  it('a liveness finding whose named case does not kill, but a candidate answered just before it does: shows again, naming it (exit 1)', async () => {
    const url = await node('dies-after-answering');
    const named = finding('liveness', url).minimal;
    const innocent = { ...named, index: 377, http: { ...named.http, bodyBase64: Buffer.from('{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":"c377"}').toString('base64') } };
    const r = await replay({ findings: [finding('liveness', url, { minimal: innocent, original: innocent, candidates: [{ ...named, index: 376 }] })] });
    expect(now(r.lines)).toMatch(/^now: SHOWS AGAIN: the node stopped answering after its candidate #376/);
    expect(r.code).toBe(1);
  });

  it('names a killing candidate with the start of its curl only, pointing to the report for the whole (a 5 KB case)', async () => {
    const url = await node('dies-after-answering');
    const named = finding('liveness', url).minimal;
    const innocent = { ...named, index: 377, http: { ...named.http, bodyBase64: Buffer.from('{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":"c377"}').toString('base64') } };
    const long = { ...named, index: 376, curl: `echo ${'QUFB'.repeat(1_800)} | base64 -d | curl -sS -i -X POST --data-binary @- '${url}/rpc'` };
    const r = await replay({ findings: [finding('liveness', url, { id: 'F4', minimal: innocent, original: innocent, candidates: [long] })] }, 'F4');
    const line = now(r.lines);
    expect(line).toMatch(/^now: SHOWS AGAIN: the node stopped answering after its candidate #376 .*echo QUFB.*… \(7,\d{3} characters: the whole command is in the report, finding F4's candidates\)/);
    expect(line.length).toBeLessThan(600);
  });

  it('a liveness finding on a node that answers the probe after it: no longer shows (exit 0)', async () => {
    const url = await node('answers');
    const r = await replay({ findings: [finding('liveness', url)] });
    expect(now(r.lines)).toMatch(/^now: NO LONGER SHOWS/);
    expect(r.code).toBe(0);
  });

  it('a liveness finding whose case gets no answer, though the node lives: not "no longer shows" (exit 1)', async () => {
    const url = await node('drops');
    const r = await replay({ findings: [finding('liveness', url)] });
    expect(now(r.lines)).toMatch(/^now: NO ANSWER: the request got no answer/);
    expect(r.code).toBe(1);
  });

  it('any other finding whose case gets no answer at all: never "no longer shows" (exit 1), and a death is said', async () => {
    const dropped = await replay({ findings: [finding('envelope', await node('drops'))] });
    expect(now(dropped.lines)).toMatch(/^now: NO ANSWER: .*the node still answers a known-good call/);
    expect(dropped.code).toBe(1);
    const killed = await replay({ findings: [finding('error-code', await node('dies'))] });
    expect(now(killed.lines)).toMatch(/^now: SHOWS AGAIN: the node stopped answering after this request/);
    expect(killed.code).toBe(1);
    // Answered, and rightly: that one no longer shows.
    const fixed = await replay({ findings: [finding('envelope', await node('answers'))] });
    expect(now(fixed.lines)).toBe('now: NO LONGER SHOWS (envelope)');
    expect(fixed.code).toBe(0);
  });

  it('a finding whose bug is fixed while another of its oracle shows: no longer shows (exit 0), naming the other (an outside tester\'s id echo fixed, "jsonrpc" still dropped)', async () => {
    const url = await node('no-jsonrpc');
    const idEcho = finding('envelope', url, { message: 'answered with id "boom2", not "boom"', source: 'JSON-RPC 2.0 §5 (id: "It MUST be the same as the value of the id member in the Request Object")', kind: 'id changed' });
    const { code, lines } = await replay({ findings: [idEcho] });
    expect(now(lines)).toMatch(/^now: NO LONGER SHOWS \(envelope: id changed\); but the answer shows another envelope violation: .*jsonrpc/);
    expect(code).toBe(0);
  });

  it('refuses to judge a node that does not answer before the case (exit 3)', async () => {
    const url = await node('dies');
    const [server] = servers;
    await new Promise<void>((r) => server?.close(() => r()));
    await expect(replay({ findings: [finding('liveness', url)] })).rejects.toBeInstanceOf(FuzzReplayUnreachableError);
    await expect(replay({ findings: [finding('liveness', url)] })).rejects.toMatchObject({ exitCode: 3 });
  });

  it('replays the finding an id was folded into, and says so', async () => {
    const url = await node('answers');
    const holder = finding('envelope', url, { id: 'F1', alsoAs: [{ id: 'F2', method: 'chain_health', rule: 'envelope/extra-member', count: 3 }] });
    const r = await replay({ findings: [holder, finding('envelope', url, { id: 'F3' })] }, 'f2');
    expect(r.lines[0]).toBe("F2 was folded into F1 (one cause: its cases shrank to F1's minimal case): replaying F1");
    expect(r.lines[1]).toMatch(/^F1 envelope/);
    await expect(replay({ findings: [holder] }, 'F9')).rejects.toThrow(/no finding F9 \(it has F1\)/);
  });
});

describe('readFuzzReport', () => {
  it('reads the findings and the profile the run judged them by', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-'));
    try {
      const path = join(dir, 'report.json');
      writeFileSync(path, JSON.stringify({ format: 'chainrpc-fuzz/1', options: { profile: 'small-batches', profileFile: '/somewhere/profile.json' }, findings: [] }));
      expect(readFuzzReport(path)).toEqual({ findings: [], profileName: 'small-batches', profileFile: '/somewhere/profile.json' });
      writeFileSync(path, JSON.stringify({ format: 'chainrpc-fuzz/1', options: { profile: 'reference', rpcPath: '/v1', methodPrefix: '' }, findings: [] }));
      expect(readFuzzReport(path)).toEqual({ findings: [], profileName: 'reference', rpcPath: '/v1', methodPrefix: '' });
      writeFileSync(path, JSON.stringify({ format: 'chainrpc-fuzz/1', options: { profile: 'reference' }, findings: [] }));
      expect(readFuzzReport(path)).toEqual({ findings: [], profileName: 'reference' });
      writeFileSync(path, JSON.stringify({ format: 'chainrpc-load/2', findings: [] }));
      expect(() => readFuzzReport(path)).toThrow(/not a chainrpc fuzz report/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
