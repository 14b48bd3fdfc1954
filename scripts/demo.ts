/**
 * `npm run demo` (after the build): a devnet of 2 MN + 1 LN reference nodes as separate processes;
 * a faucet claim for a fresh key; a transfer signed in the reference wire format, sent to the LN and
 * followed into a block on every node; a refused transaction and its error code; then every node
 * stopped. When the conformance suite lands, this becomes: start a devnet, certify it, write reports.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createClient, JsonRpcError } from '../core/client/index.js';
import { formatTokens, generateKeypair } from '../core/codec/index.js';
import { packageRoot } from '../core/paths.js';
import { CLI_PATH, startDevnet } from '../reference-node/devnet/startDevnet.js';

const say = (line: string): void => console.log(line);

/** Runs the chainrpc binary as a user would, echoing the command line. */
function chainrpc(args: string[], expectCode = 0): string {
  say(`\n$ chainrpc ${args.map((a) => (a.length > 24 ? `${a.slice(0, 10)}…${a.slice(-6)}` : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [CLI_PATH, ...args], { encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== expectCode) throw new Error(`expected exit ${expectCode}, got ${String(r.status)}`);
  return r.stdout;
}

say('demo: starting a devnet of 2 MN + 1 LN (separate processes on loopback)...');
const net = await startDevnet({ mn: 2, ln: 1, blockTimeMs: 300, chainId: 1n, dataDir: join(packageRoot, '.chainrpc', 'demo-devnet'), keepData: false });
try {
  for (const n of net.nodes) say(`  ${n.name}  ${n.kind}  ${n.url}  pid ${n.pid}`);
  const ln = net.nodes.find((n) => n.kind === 'LN');
  if (!ln) throw new Error('no LN');
  const clients = net.nodes.map((n) => createClient({ baseUrl: n.url }));

  const alice = generateKeypair();
  const bob = generateKeypair();
  const key = Buffer.from(alice.privateKey).toString('hex');
  chainrpc(['call', '--url', ln.url, 'chain_faucetClaim', alice.address]);
  const waitBalance = async (address: string, want: (b: bigint) => boolean): Promise<bigint[]> => {
    for (let i = 0; i < 100; i++) {
      const balances = await Promise.all(clients.map((c) => c.call<{ balance: string }>('chain_getAccount', [address]).then((a) => BigInt(a.balance))));
      if (balances.every(want)) return balances;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`balance of ${address} did not settle on every node`);
  };
  await waitBalance(alice.address, (b) => b > 0n);
  say(`faucet: ${alice.address.slice(0, 12)}… holds ${formatTokens((await waitBalance(alice.address, (b) => b > 0n))[0] ?? 0n)} tokens on every node`);

  const tx = JSON.parse(chainrpc(['tx', 'sign', '--key', key, '--to', bob.address, '--value', '1.5token', '--fee', '0.001token', '--nonce', '0', '--chain-id', '1'])) as { wire: string; hash: string };
  chainrpc(['call', '--url', ln.url, 'chain_sendRawTransaction', tx.wire]);
  const balances = await waitBalance(bob.address, (b) => b === 1_500_000_000_000_000_000n);
  say(`transfer: ${bob.address.slice(0, 12)}… holds ${formatTokens(balances[0] ?? 0n)} tokens on all ${balances.length} nodes`);
  chainrpc(['call', '--url', net.nodes[0]?.url ?? '', 'chain_getAccount', alice.address]);

  // The same nonce again: refused with the profile's NonceTooLow (-32005), exit code 1.
  const again = JSON.parse(chainrpc(['tx', 'sign', '--key', key, '--to', bob.address, '--value', '1token', '--nonce', '0'])) as { wire: string };
  chainrpc(['call', '--url', ln.url, 'chain_sendRawTransaction', again.wire], 1);

  try {
    await clients[0]?.call('chain_getBlockByHeight', [10 ** 9]);
  } catch (err) {
    if (err instanceof JsonRpcError) say(`\nchain_getBlockByHeight(10^9): error ${err.code} ${err.rpcMessage}: ${JSON.stringify(err.data)}`);
  }
  const pou = await clients[0]?.call<{ leader: string }>('chain_pouLocal');
  say(`leader: ${pou?.leader ?? 'none'}; height ${String(await clients[0]?.call('chain_blockNumber'))}`);
  await Promise.all(clients.map((c) => c.close()));
} finally {
  await net.stop();
  say('\ndemo: devnet stopped. Run your own with: npx chainrpc devnet --mn 3 --ln 2');
}
