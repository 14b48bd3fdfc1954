/**
 * Runs of `chainrpc fuzz` (FuzzRun, fuzz/model.ts) for the fuzz reports' tests: a clean run, a run with
 * findings of every shape a report must show (shrunk and not, reproduced, flaky and not rechecked, a liveness
 * finding, a disagreement with the other node's answer, a body that is not UTF-8, a hostile body that tries to
 * break out of HTML, a leak of a stack trace), a run whose only finding is a flaky sighting (CLEAN by the
 * verdict), and a run whose one node never answered. Counts agree with each other (targets, families,
 * timeline, findings: flaky sightings included, as the runner files them), as the runner's would.
 */
import type { CaseFamily, Finding, FoundCase, FuzzAnswer, FuzzRun, TargetSummary } from '../../fuzz/model.js';

export const FUZZ_NODE_A = 'http://127.0.0.1:8545';
export const FUZZ_NODE_B = 'http://10.0.0.7:8545';

/** A body that would run script if a report put it into HTML unescaped. */
export const FUZZ_HOSTILE = '</script><img src=x onerror=alert(1)>';

/** The bytes of the body that is not UTF-8: a JSON start, then 0xff 0xfe (never valid in UTF-8), then a control byte. */
export const FUZZ_BINARY_BODY = new Uint8Array([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0xff, 0xfe, 0x00, 0x01, 0x7d]);

export const FUZZ_FIXTURE_KINDS = ['clean', 'findings', 'flaky', 'unreachable'] as const;
export type FuzzFixtureKind = (typeof FUZZ_FIXTURE_KINDS)[number];

const SEED = 424242;
const STARTED_AT = '2026-12-01T10:00:00.000Z';
const utf8 = new TextDecoder('utf-8', { fatal: true });
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

interface CaseSpec {
  index: number;
  rule: string;
  title: string;
  body: string | Uint8Array;
  answer: FuzzAnswer;
  url?: string;
  contentType?: string | undefined;
  method?: string;
  omitContentLength?: boolean;
}

/** A case as a finding keeps it (the shape of fuzz/run/foundCase.ts): bytes as base64, as text when UTF-8, and its curl. */
function found(spec: CaseSpec): FoundCase {
  const bytes = typeof spec.body === 'string' ? new TextEncoder().encode(spec.body) : spec.body;
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
    // eslint-disable-next-line no-control-regex -- control characters make a body binary, as in foundCase.ts
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) text = undefined;
  } catch {
    text = undefined;
  }
  const contentType = 'contentType' in spec ? spec.contentType : 'application/json';
  const method = spec.method ?? 'POST';
  const base64 = Buffer.from(bytes).toString('base64');
  const head = `curl -sS -i -X ${method} -H ${quote(`content-type: ${contentType ?? ''}`)}`;
  const endpoint = quote(`${spec.url ?? FUZZ_NODE_A}/rpc`);
  const curl = text === undefined ? `echo ${base64} | base64 -d | ${head} --data-binary @- ${endpoint}` : `${head} --data-binary ${quote(text)} ${endpoint}`;
  return {
    seed: SEED,
    index: spec.index,
    rule: spec.rule,
    title: spec.title,
    http: { method, contentType, bodyBase64: base64, ...(text === undefined ? {} : { bodyText: text }), ...(spec.omitContentLength === true ? { omitContentLength: true } : {}) },
    answer: spec.answer,
    curl,
  };
}

const answer = (status: number, text: string, ms: number): FuzzAnswer => ({ status, headers: { 'content-type': 'application/json' }, text, ms });
const call = (method: string, params: string, id: string | number = 1): string => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${method}","params":${params}}`;

function finding(f: Omit<Finding, 'signature' | 'original'> & { original?: FoundCase }): Finding {
  return { ...f, signature: `${f.oracle} ${f.method ?? '-'} ${f.rule}`, original: f.original ?? f.minimal };
}

/** F1: an invalid height answered with a result, shrunk from a batch of three to the one call. */
function shrunkFinding(): Finding {
  const big = call('chain_getBlockByHeight', '["18446744073709551616"]', 7);
  return finding({
    id: 'F1', oracle: 'error-expected', url: FUZZ_NODE_A, method: 'chain_getBlockByHeight', rule: 'invalid-params/maximum',
    message: 'answered an invalid height (2^64, above the u64 maximum) with a result', source: 'schema: methods/chain_getBlockByHeight#params',
    original: found({ index: 1812, rule: 'invalid-params/maximum', title: 'batch of 3, height 2^64 in the second', body: `[${call('chain_blockNumber', '[]', 1)},${big},${call('chain_blockNumber', '[]', 3)}]`, answer: answer(200, '[{"jsonrpc":"2.0","id":1,"result":"0x2a"},{"jsonrpc":"2.0","id":7,"result":null},{"jsonrpc":"2.0","id":3,"result":"0x2a"}]', 3.2) }),
    minimal: found({ index: 1812, rule: 'invalid-params/maximum', title: 'height 2^64', body: big, answer: answer(200, '{"jsonrpc":"2.0","id":7,"result":null}', 2.1) }),
    count: 37, recheck: 'reproduced', atMs: 4_210,
  });
}

/** F2: the node stopped answering after a deeply nested body (the liveness check after it got no answer). */
function livenessFinding(): Finding {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  return finding({
    id: 'F2', oracle: 'liveness', url: FUZZ_NODE_A, rule: 'envelope/deep-nesting',
    message: 'the node stopped answering after this request: chain_blockNumber got no answer within 5 s', source: 'JSON-RPC 2.0 §5 (every request is answered)',
    minimal: found({ index: 4410, rule: 'envelope/deep-nesting', title: 'array nested 20,000 deep', body: deep, answer: { failure: { code: 'ECONNRESET', message: 'socket hang up' }, ms: 5_002 } }),
    count: 1, recheck: 'not-rechecked', atMs: 31_870,
  });
}

/** F3: the two nodes answer a valid call differently (a balance as a number against a string). */
function disagreementFinding(): Finding {
  const body = call('chain_getAccount', '["7d5b3a0c1e9f4b2a6c8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d"]', 2);
  return finding({
    id: 'F3', oracle: 'disagreement', url: FUZZ_NODE_A, method: 'chain_getAccount', rule: 'valid/chain_getAccount',
    message: `answered balance as the string "1000" where ${FUZZ_NODE_B} answered the number 1000`, source: 'profile: results (both nodes run the reference profile)',
    minimal: found({ index: 205, rule: 'valid/chain_getAccount', title: 'a funded account', body, answer: answer(200, '{"jsonrpc":"2.0","id":2,"result":{"balance":"1000","nonce":0}}', 1.8) }),
    count: 12, recheck: 'reproduced', atMs: 2_050,
    others: [{ url: FUZZ_NODE_B, answer: answer(200, '{"jsonrpc":"2.0","id":2,"result":{"balance":1000,"nonce":0}}', 2.4) }],
  });
}

/** F4: bytes that are not UTF-8 answered with a stack trace and a server path. */
function leakFinding(): Finding {
  return finding({
    id: 'F4', oracle: 'leak', url: FUZZ_NODE_B, rule: 'envelope/invalid-utf8',
    message: 'the answer holds a stack trace and a server file path', source: 'spec: docs/interface.md#errors',
    minimal: found({ index: 2999, rule: 'envelope/invalid-utf8', title: 'invalid UTF-8 inside a string', body: FUZZ_BINARY_BODY, url: FUZZ_NODE_B, answer: answer(500, 'TypeError: Cannot read properties of undefined\n    at parse (/srv/node/dist/rpc/parse.js:41:7)\n    at Server.<anonymous> (/srv/node/dist/rpc/server.js:88:12)', 6.4) }),
    count: 4, recheck: 'reproduced', atMs: 18_400,
  });
}

/** F5: a hostile param echoed back in an error with the wrong code. */
function hostileFinding(): Finding {
  const body = call('chain_getBlockByHeight', JSON.stringify([FUZZ_HOSTILE]), 9);
  return finding({
    id: 'F5', oracle: 'error-code', url: FUZZ_NODE_A, method: 'chain_getBlockByHeight', rule: 'invalid-params/type',
    message: `answered a height of the wrong type with -32603 where the profile names -32602 (the node said "invalid height ${FUZZ_HOSTILE}")`, source: 'profile: errorCodes.InvalidParams',
    minimal: found({ index: 733, rule: 'invalid-params/type', title: `height is the string ${FUZZ_HOSTILE}`, body, answer: answer(200, `{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"invalid height ${FUZZ_HOSTILE.replace(/"/g, '\\"')}"}}`, 1.1) }),
    count: 3, recheck: 'reproduced', atMs: 9_900,
  });
}

/** F6: a slow answer that was fast when re-sent (on node B; or another id and node). */
function flakyFinding(id = 'F6', url = FUZZ_NODE_B): Finding {
  return finding({
    id, oracle: 'slow', url, method: 'chain_getBlockByHeight', rule: 'valid/chain_getBlockByHeight',
    message: 'answered in 2,310 ms, beyond the time bound of 1,000 ms', source: 'chainrpc: max(1 s, 50x the median call)',
    minimal: found({ index: 5120, rule: 'valid/chain_getBlockByHeight', title: 'the latest block', body: call('chain_getBlockByHeight', '["0"]', 4), url, answer: answer(200, '{"jsonrpc":"2.0","id":4,"result":{"height":"0"}}', 2_310) }),
    count: 1, recheck: 'flaky', atMs: 44_000,
  });
}

/** A timeline of `seconds` ticks of about `rate` cases each, and the findings known at each tick. */
function timeline(seconds: number, rate: number, findings: readonly Finding[]): FuzzRun['timeline'] {
  return Array.from({ length: seconds }, (_, i) => {
    const atMs = (i + 1) * 1000;
    return { atMs, cases: rate + ((i * 37) % 11) - 5, findings: findings.filter((f) => f.atMs <= atMs).length };
  });
}

/** Families that add up to `cases`, in the proportions the generator draws them. */
function families(cases: number): Record<CaseFamily, number> {
  const valid = Math.round(cases * 0.4);
  const invalid = Math.round(cases * 0.3);
  const envelope = Math.round(cases * 0.2);
  return { valid, 'invalid-params': invalid, envelope, http: cases - valid - invalid - envelope };
}

const target = (url: string, over: Partial<TargetSummary>): TargetSummary => ({ url, cases: 0, findings: 0, state: 'answering', medianMs: 2.1, slowBoundMs: 1000, livenessChecks: 0, ...over });

function base(over: Partial<FuzzRun>): FuzzRun {
  return {
    tool: { name: 'chainrpc', version: '0.1.0' },
    startedAt: STARTED_AT,
    durationMs: 60_000,
    seed: SEED,
    options: { cases: null, durationMs: 60_000, only: [], maxRate: 200, maxBodyBytes: 1_048_576, seek: 'none', profile: 'reference' },
    targets: [],
    cases: 0,
    byFamily: families(0),
    findings: [],
    toolErrors: [],
    timeline: [],
    stop: 'duration',
    ...over,
  };
}

function findingsRun(): FuzzRun {
  const findings = [shrunkFinding(), livenessFinding(), disagreementFinding(), leakFinding(), hostileFinding(), flakyFinding()];
  const tl = timeline(60, 180, findings);
  const cases = tl.reduce((n, p) => n + p.cases, 0);
  const onA = findings.filter((f) => f.url === FUZZ_NODE_A).length;
  return base({
    options: { cases: null, durationMs: 60_000, only: ['chain_getBlockByHeight', 'chain_getAccount'], maxRate: 200, maxBodyBytes: 1_048_576, seek: 'slow', profile: 'reference' },
    targets: [
      target(FUZZ_NODE_A, { cases: Math.floor(cases / 2), findings: onA, state: 'stopped', livenessChecks: 812 }),
      target(FUZZ_NODE_B, { cases: Math.ceil(cases / 2), findings: findings.length - onA, medianMs: 2.6, slowBoundMs: 1000, livenessChecks: 790 }),
    ],
    cases,
    byFamily: families(cases),
    findings,
    toolErrors: [
      { url: FUZZ_NODE_B, message: `could not fund an account for valid transactions: the faucet refused (-32005 ${FUZZ_HOSTILE})`, atMs: 1_500 },
      { message: 'the profile names no result schema for chain_getPeers: its results were not judged', atMs: 0 },
    ],
    timeline: tl,
    costly: [
      { case: found({ index: 6001, rule: 'valid/chain_getBlockByHeight', title: 'a block with 5,000 transactions', body: call('chain_getBlockByHeight', '["812"]', 5), answer: answer(200, '{"jsonrpc":"2.0","id":5,"result":{"height":"812","transactions":[…]}}', 480) }), costRatio: 96.4 },
      { case: found({ index: 6050, rule: 'envelope/batch-size', title: 'batch of 1,000 chain_blockNumber', body: `[${Array.from({ length: 3 }, (_, i) => call('chain_blockNumber', '[]', i)).join(',')}]`, answer: answer(200, '[…]', 120) }), costRatio: 12.5 },
    ],
  });
}

/**
 * A run of the kind asked for: `clean` (one node, 10,000 cases, nothing found), `findings` (two nodes, five
 * findings and a flaky sighting: F1 shrunk, F2 liveness, F3 disagreement, F4 not UTF-8, F5 hostile, F6 flaky;
 * tool errors, costly cases), `flaky` (the clean run, but for one flaky sighting, F1, on its node),
 * `unreachable` (the one node never answered: no case sent, a tool error).
 */
export function fuzzRunFixture(kind: FuzzFixtureKind): FuzzRun {
  if (kind === 'findings') return findingsRun();
  if (kind === 'flaky') return flakyRun();
  if (kind === 'unreachable') {
    return base({
      durationMs: 5_012,
      targets: [target(FUZZ_NODE_A, { state: 'unreachable', medianMs: 0, slowBoundMs: 1000 })],
      toolErrors: [{ url: FUZZ_NODE_A, message: `no answer from ${FUZZ_NODE_A}/rpc: connect ECONNREFUSED 127.0.0.1:8545`, atMs: 5_010 }],
      stop: 'all-targets-stopped',
    });
  }
  return cleanRun([]);
}

/** One node, 10,000 cases, and these findings (as the runner files them: counted on the node and in the timeline). */
function cleanRun(findings: Finding[]): FuzzRun {
  const tl = timeline(50, 200, findings);
  tl[tl.length - 1] = { atMs: 50_000, cases: 10_000 - tl.slice(0, -1).reduce((n, p) => n + p.cases, 0), findings: findings.length };
  return base({
    durationMs: 50_000,
    options: { cases: 10_000, durationMs: null, only: [], maxRate: 200, maxBodyBytes: 1_048_576, seek: 'none', profile: 'reference' },
    targets: [target(FUZZ_NODE_A, { cases: 10_000, findings: findings.length, livenessChecks: 1_204 })],
    cases: 10_000,
    byFamily: families(10_000),
    findings,
    timeline: tl,
    stop: 'cases',
  });
}

/** The clean run, but for one slow answer that was fast when re-sent: a flaky sighting, no finding. */
function flakyRun(): FuzzRun {
  return cleanRun([flakyFinding('F1', FUZZ_NODE_A)]);
}
