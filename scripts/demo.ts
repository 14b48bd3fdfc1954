/**
 * `npm run demo` (after the build): the foundation end to end, through the real chainrpc binary.
 * The method catalogue from the schemas; a key pair; a transfer signed in the reference wire
 * format; that transaction decoded and strictly verified, intact and then with one byte changed.
 * When the reference node lands, this becomes: start a devnet, certify it, write the reports.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../core/paths.js';

const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

function chainrpc(args: string[], expectCode = 0): string {
  console.log(`\n$ chainrpc ${args.map((a) => (a.length > 24 ? a.slice(0, 12) + '…' + a.slice(-8) : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== expectCode) {
    console.error(`demo: expected exit ${expectCode}, got ${String(r.status)}`);
    process.exit(1);
  }
  return r.stdout;
}

chainrpc(['methods']);
const alice = JSON.parse(chainrpc(['keygen', '--seed', 'demo-alice'])) as { private_key: string; address: string };
const bob = JSON.parse(chainrpc(['keygen', '--seed', 'demo-bob'])) as { address: string };
const tx = JSON.parse(
  chainrpc(['tx', 'sign', '--key', alice.private_key, '--to', bob.address, '--value', '1.5token', '--fee', '0.001token', '--nonce', '0', '--chain-id', '1']),
) as { wire: string };
chainrpc(['tx', 'decode', tx.wire]);
// One signature byte changed: the strict verifier must refuse it (exit 1).
const i = tx.wire.length - 2;
chainrpc(['tx', 'decode', tx.wire.slice(0, i) + (tx.wire[i] === '0' ? '1' : '0') + tx.wire.slice(i + 1)], 1);
console.log('\ndemo: done. The signed transaction above is what chain_sendRawTransaction takes (see docs/transaction-codec.md).');
