import { describe, expect, it } from 'vitest';
import { internalDetail } from './internalDetail.js';

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
});
