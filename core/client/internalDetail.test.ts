import { describe, expect, it } from 'vitest';
import { internalDetail, PATTERNS } from './internalDetail.js';

describe('internalDetail', () => {
  it.each([
    ['a Node.js stack frame', 'Error: boom\n    at dispatch (/srv/node/dist/server.js:41:13)', 'a stack trace'],
    ['a Node.js internal frame', 'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', 'a stack trace'],
    ['a Python traceback', 'Traceback (most recent call last):\n  File "/app/rpc.py", line 12, in handle', 'a stack trace'],
    ['a Go panic', 'panic: runtime error: index out of range [3] with length 3\n\ngoroutine 18 [running]:', 'a stack trace'],
    ['a Java frame', 'java.lang.NullPointerException\n\tat com.acme.Rpc.handle(Rpc.java:88)', 'a stack trace'],
    ['a Rust panic', "thread 'tokio-runtime-worker' panicked at src/rpc.rs:10:5", 'a stack trace'],
    ['a source file and line', 'failed in handler.go:212', 'a source file and line'],
    ['a server path', 'cannot open /home/deploy/node/config.toml', 'a server file path'],
    ['a Windows path', 'C:\\Users\\build\\node\\rpc.dll', 'a server file path'],
    ['node_modules', 'in node_modules/express/lib/router', 'a server file path'],
    ['an exception class and message', 'TypeError: Cannot read properties of undefined', 'internal exception text'],
    ['a runtime message', "Cannot read properties of undefined (reading 'jsonrpc')", 'internal exception text'],
  ])('finds %s', (_what, text, kind) => {
    expect(internalDetail(text)?.kind).toBe(kind);
  });

  it.each([
    'Invalid params',
    'param 1 (address) must be a string',
    'the body is not valid JSON: Nesting deeper than 512 levels at offset 512',
    'the transaction is 176 bytes; a transaction is 177',
    'use POST for JSON-RPC (got GET)',
    'Method not found: chainrpc_noSuchMethod',
    'invalid character \'x\' looking for beginning of value',
    'Parse error',
    'the node failed while handling this call; the details are in its log',
    'see https://docs.example.org/rpc/errors#32602',
    'a 0x prefix is not allowed: remove it',
  ])('leaves a plain message alone: %s', (text) => {
    expect(internalDetail(text)).toBeUndefined();
  });

  it('finds what the patterns alone find: the literals that skip a pattern never hide a match', () => {
    // The reading without the skip: each pattern tried on the whole text, in order.
    const alone = (text: string): string | undefined => {
      for (const p of PATTERNS) {
        const m = p.re.exec(text);
        if (m !== null) return `${p.kind} at ${m.index}: ${m[0]}`;
      }
      return undefined;
    };
    const read = (text: string): string | undefined => {
      const found = internalDetail(text);
      if (found === undefined) return undefined;
      const m = PATTERNS.find((p) => p.kind === found.kind && p.re.test(text) && text.includes(found.excerpt))?.re.exec(text);
      return m === null || m === undefined ? `${found.kind}: ?` : `${found.kind} at ${m.index}: ${m[0]}`;
    };
    const pieces = [
      'at ', ' (', '(', ')', 'at node:', 'at file://', 'at C:\\', 'f (node:', 'f (C:\\', 'at f (/', 'at /', 'x.cjs:', 'a.cpp:', 'b.h:', '/', '/srv/', '/home/x/', 'C:\\', 'c:\\Users\\', 'file:///', 'node:', 'internal', 'server', '.js', '.ts:', '.go:', '.java:', '.kt:', '.scala:',
      ':', ':12', '12', ':3', ' +0x1f', 'Error: ', 'TypeError', 'Exception', ': x', 'Uncaught: ', 'KeyError: k', 'panic: ', 'goroutine 7 [', "thread 'main' panicked at ",
      'Traceback (most recent call last)', 'File "a.py", line 3', ' in ', ':line 9', 'node_modules/', 'node_modules', 'Cannot read properties of null', 'is not a function',
      'NoneType', 'nil pointer dereference', 'index out of range', 'Exception in thread "', 'com.acme.Rpc.handle(Rpc.java:88)', ' ', '\n', '"', 'x', '-', 'at',
    ];
    // mulberry32: a seeded generator whose arithmetic stays exact in 32 bits.
    let state = 12_345;
    const random = (n: number): number => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let found = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let k = 1 + random(8); k > 0; k--) text += pieces[random(pieces.length)];
      const expected = alone(text);
      if (expected !== undefined) found++;
      expect(read(text), JSON.stringify(text)).toBe(expected);
    }
    // Both readings were tried on texts that leak and texts that do not.
    expect(found).toBeGreaterThan(2_000);
    expect(found).toBeLessThan(19_000);
  });
});
