/**
 * Child process for Chain.crash.test.ts: opens the chain in argv[2] and produces blocks of
 * transfers forever, printing "height hash" once each block's produceBlock has resolved (that is,
 * once it is visible). The test kills it with SIGKILL at random moments.
 */
import { Chain } from '../../reference-node/chain/Chain.js';
import { devnetFaucetKeypair } from '../../reference-node/chain/genesis.js';
import { alice, bob, nodeA, produce, testGenesis, transfer } from './chain.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: crashChild.ts <dataDir>');
const chain = await Chain.open({ dataDir, genesis: testGenesis(), faucet: { keypair: devnetFaucetKeypair() } });
process.stdout.write('open\n');
for (;;) {
  const nonce = chain.pendingNonce(alice.address);
  for (let i = 0n; i < 20n; i++) await chain.submit(transfer(alice, bob.address, 1n, nonce + i).wire, 'client');
  const block = await produce(chain, nodeA);
  process.stdout.write(`${block.height} ${block.hash}\n`);
}
