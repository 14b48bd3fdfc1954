import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bodyText, curlOf, describeHttp, foundCase, httpOf, minimalTitle } from './foundCase.js';
import type { FuzzCase } from '../model.js';

const fuzzCase = (body: Uint8Array, extra: Partial<FuzzCase> = {}): FuzzCase => ({ rule: 'envelope/x', family: 'envelope', seed: 1, index: 2, title: 't', http: { method: 'POST', contentType: 'application/json', body }, risky: false, ...extra });

describe('a found case', () => {
  it('keeps the exact bytes, text only when they are clean UTF-8, and gives them back', () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const found = foundCase(fuzzCase(bytes), { status: 200, text: 'x', ms: 1 }, 'http://127.0.0.1:1/rpc');
    expect(found.http.bodyText).toBeUndefined();
    expect([...httpOf(found).body]).toEqual([...bytes]);
    expect(bodyText(new TextEncoder().encode('{"a":1}'))).toBe('{"a":1}');
    expect(bodyText(new TextEncoder().encode('a\u0000b'))).toBeUndefined();
    // A byte order mark is part of the bytes: kept in the text, not dropped.
    expect(bodyText(new Uint8Array([0xef, 0xbb, 0xbf]))).toBe('\uFEFF');
  });

  it('writes a curl command whose shell form carries the same bytes (quotes, and bytes a shell cannot quote)', () => {
    for (const body of [new TextEncoder().encode(`{"m":"it's \\"q\\" $HOME \`x\`"}`), new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a, 0xff]), new Uint8Array([0xef, 0xbb, 0xbf]), new TextEncoder().encode('\uFEFF{"a":1}')]) {
      const curl = curlOf(fuzzCase(body), 'http://127.0.0.1:1/rpc');
      expect(curl).toContain("'http://127.0.0.1:1/rpc'");
      // The data part, evaluated by a real shell, gives back the exact bytes.
      const data = curl.includes('| base64 -d') ? curl.slice(0, curl.indexOf('| curl')) : `printf '%s' ${curl.slice(curl.indexOf('--data-binary ') + 14, curl.lastIndexOf(" 'http"))}`;
      expect([...execFileSync('sh', ['-c', data])]).toEqual([...body]);
    }
  });

  it('describes a request by its bytes alone, and titles a shrunk case by that and by what it was shrunk from', () => {
    const post = (body: string): FuzzCase['http'] => ({ method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(body) });
    expect(describeHttp(post('{"jsonrpc":"2.0","method":"chain_getAccount","id":""}'))).toBe('chain_getAccount, no params, id ""');
    expect(describeHttp(post('{"method":"chain_getAccount","params":["ab"],"id":0,"x":1}'))).toBe('chain_getAccount, 1 param ["ab"], id 0, no "jsonrpc", also "x"');
    expect(describeHttp(post('[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[]},7]'))).toBe('batch of 2: chain_blockNumber, params [], no id (a notification); a number (7), not a request object');
    expect(describeHttp(post('{"a":'))).toBe('5 bytes that are not JSON');
    expect(describeHttp({ method: 'POST', contentType: undefined, body: new Uint8Array([0xff]) })).toBe('1 byte, not UTF-8 text');
    const original = { title: 'chain_getAccount: one param too many ({})', http: post('{"jsonrpc":"2.0","method":"chain_getAccount","params":["ab",{}],"id":""}') };
    expect(minimalTitle(original, post('{"jsonrpc":"2.0","method":"chain_getAccount","id":""}'), false)).toBe('chain_getAccount, no params, id "" (shrunk from: chain_getAccount: one param too many ({}))');
    // Nothing shrank: the original's title is still true of it.
    expect(minimalTitle(original, original.http, true)).toBe('chain_getAccount: one param too many ({}) (shrinking cut short by the time budget)');
  });
});
