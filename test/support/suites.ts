/**
 * Test helpers for checks: a real reference node on loopback (in-process, its own temp data dir) and
 * a run of chosen checks against it through the real runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFaults } from '../../reference-node/faults/applyFaults.js';
import { networkGenesis } from '../../reference-node/node/NetworkGenesis.js';
import type { NetworkGenesis } from '../../reference-node/node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../../reference-node/node/NodeIdentity.js';
import { ReferenceNode } from '../../reference-node/node/ReferenceNode.js';
import type { NodeOptions } from '../../reference-node/node/ReferenceNode.js';
import type { Check } from '../../suites/Check.js';
import type { CheckResult, Level } from '../../suites/model.js';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { runSuite } from '../../suites/runner/runSuite.js';
import { testNodeOptions } from './nodeOptions.js';
import { freshKey } from './peerClient.js';

export const TEST_BLOCK_MS = 100;

export interface TestNode {
  node: ReferenceNode;
  url: string;
  stop(): Promise<void>;
}

/** Node options for a test, and the faults (docs/faults.md) to start it with. */
export type TestNodeOptions = Partial<NodeOptions> & { faults?: readonly string[] };

/** A reference node with a short block time; extra options pass through, faults through the fault layer. */
export async function startTestNode(extra: TestNodeOptions = {}): Promise<TestNode> {
  const dir = extra.dataDir ?? mkdtempSync(join(tmpdir(), 'chainrpc-suite-'));
  const { faults = [], ...options } = extra;
  const node = await ReferenceNode.start(withFaults(testNodeOptions(dir, { blockTimeMs: TEST_BLOCK_MS, ...options }), faults));
  return {
    node,
    url: node.url,
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A network (chain id 1) whose one member never runs: an LN given it follows a chain that never grows. */
export function absentMemberNetwork(): NetworkGenesis {
  return networkGenesis(1n, [freshKey().address]);
}

/**
 * Several in-process reference nodes of one network (kinds in order, e.g. MN, MN, LN): the MNs'
 * keys are made first and are the genesis members, as `chainrpc devnet` does; every other node
 * greets the first one's peer URL.
 */
export async function startTestNetwork(kinds: ('MN' | 'LN')[], extra: (index: number) => TestNodeOptions = () => ({})): Promise<{ nodes: TestNode[]; urls: string[]; stop(): Promise<void> }> {
  const plan = kinds.map((kind) => ({ kind, dataDir: mkdtempSync(join(tmpdir(), 'chainrpc-suite-')) }));
  const genesis = networkGenesis(1n, plan.filter((n) => n.kind === 'MN').map((n) => loadOrCreateIdentity(n.dataDir).id));
  const nodes: TestNode[] = [];
  for (const [i, { kind, dataDir }] of plan.entries()) {
    const first = nodes[0];
    nodes.push(await startTestNode({ kind, dataDir, genesis, peers: first ? [first.node.p2pUrl] : [], ...extra(i) }));
  }
  const urls = nodes.map((n) => n.url);
  // Wait until every node sees every other (hellos every heartbeat).
  const deadline = Date.now() + 15_000;
  while (!nodes.every((n) => n.node.peers.live().length === nodes.length - 1)) {
    if (Date.now() > deadline) throw new Error('test network did not form');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { nodes, urls, stop: async () => void (await Promise.all(nodes.map((n) => n.stop()))) };
}

/** The profile tests run with: the reference profile, told the short block time. */
export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return { ...referenceProfile(), blockTimeMs: TEST_BLOCK_MS, ...overrides };
}

/** Runs checks against targets through the real runner; returns the results. */
export async function runChecks(checks: Check[], targets: string[], options: { profile?: Profile; gate?: Level; deadlineMs?: number; concurrency?: number; maxRatePerNode?: number; checkTimeoutMs?: number } = {}): Promise<CheckResult[]> {
  const { run } = await runSuite({
    targets,
    checks,
    profile: options.profile ?? testProfile(),
    gate: options.gate ?? 'PROFILE',
    version: 'test',
    deadlineMs: options.deadlineMs ?? 60_000,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.maxRatePerNode === undefined ? {} : { maxRatePerNode: options.maxRatePerNode }),
    ...(options.checkTimeoutMs === undefined ? {} : { checkTimeoutMs: options.checkTimeoutMs }),
  });
  return run.results;
}

/** "id@node: status: message" lines, for readable assertion failures. */
export const describeResults = (results: CheckResult[]): string[] => results.map((r) => `${r.id}: ${r.status}: ${r.evidence.message}`);

/** One HTTP response as the proxy hands it to a rewrite. */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The request that led to it. */
export interface ProxiedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop and length headers: node:http sets them again for the rewritten body. */
const DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * An HTTP proxy in front of `target` whose answers pass through `rewrite` (or whose requests it
 * answers itself when `intercept` returns a response): a hand-made faulty node.
 */
export async function startProxy(
  target: string,
  rewrite: (res: ProxiedResponse, req: ProxiedRequest) => ProxiedResponse,
  intercept: (req: ProxiedRequest) => ProxiedResponse | undefined = () => undefined,
  /** Rewrites the request body before it goes on (a node with other method names). */
  rewriteRequest: (body: string) => string = (body) => body,
): Promise<Proxy> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const incoming: ProxiedRequest = { method: req.method ?? 'GET', headers: req.headers, body: rewriteRequest(Buffer.concat(chunks).toString('utf8')) };
      const send = (out: ProxiedResponse): void => {
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      };
      const own = intercept(incoming);
      if (own !== undefined) return send(own);
      const headers: OutgoingHttpHeaders = {};
      if (req.headers['content-type'] !== undefined) headers['content-type'] = req.headers['content-type'];
      const up = httpRequest(`${target}${req.url ?? '/'}`, { method: incoming.method, headers }, (upRes) => {
        const parts: Buffer[] = [];
        upRes.on('data', (c: Buffer) => parts.push(c));
        upRes.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !DROPPED.has(k)) kept[k] = Array.isArray(v) ? v.join(', ') : v;
          send(rewrite({ status: upRes.statusCode ?? 502, headers: kept, body: Buffer.concat(parts).toString('utf8') }, incoming));
        });
      });
      up.on('error', () => send({ status: 502, headers: {}, body: '' }));
      up.end(incoming.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

