import { describe, expect, it } from 'vitest';
import { recordedCommand } from './commandText.js';

describe('the command a load report records', () => {
  it('never writes a private key, in either form of the option', () => {
    const key = 'ab'.repeat(32);
    const text = recordedCommand('load', ['reads', '--url', 'http://127.0.0.1:8545', '--private-key', key, '--private-key=' + key, '--threshold', 'p99 < 5ms']);
    expect(text).not.toContain(key);
    expect(text).toBe("chainrpc load reads --url http://127.0.0.1:8545 --private-key <hidden> --private-key=<hidden> --threshold 'p99 < 5ms'");
  });
});
