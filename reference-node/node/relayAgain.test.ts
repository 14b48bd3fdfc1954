// A transaction whose one relay was lost is relayed again while it stays pending: it is not lost with the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../core/client/index.js';
import { createTransactionSigner, generateKeypair, bytesToHex } from '../../core/codec/index.js';
import { devnetFaucetKeypair } from '../chain/index.js';
import { PeerGate, OPEN_GATE } from '../p2p/PeerGate.js';
import { startTestNetwork } from '../../test/support/suites.js';

const gate = new PeerGate();
let net: Awaited<ReturnType<typeof startTestNetwork>>;
beforeAll(async () => {
  // The MN leads (an LN never does); the LN's peer messages pass `gate`, both ways.
  net = await startTestNetwork(['MN', 'LN'], (i) => (i === 1 ? { peerGate: gate } : {}));
}, 30_000);
afterAll(() => net.stop());

const balanceOf = async (client: RpcClient, address: string): Promise<bigint> => BigInt((await client.call<{ balance: string }>('chain_getAccount', [address])).balance);

describe('relaying a pending transaction again', () => {
  it('a transfer admitted by the LN while its relay to the leader was lost is included once the link is back, within a few block times', async () => {
    const [mn, ln] = net.nodes;
    if (mn === undefined || ln === undefined) throw new Error('no network');
    const toLn = new RpcClient({ baseUrl: ln.url });
    const toMn = new RpcClient({ baseUrl: mn.url });
    try {
      const faucet = devnetFaucetKeypair();
      const { nonce } = await toLn.call<{ nonce: number }>('chain_getAccount', [faucet.address]);
      const to = bytesToHex(generateKeypair().publicKey);
      const tx = createTransactionSigner(faucet.privateKey).sign({ chainId: 1n, to, value: 5n, nonce: BigInt(nonce), fee: 0n });
      // The link cut for 300 ms, far inside the peers' liveness window (2 s): the LN admits the transfer, its one
      // relay is lost, and no peer is seen gone and back (whose hand-over of the mempool would mend it otherwise).
      gate.state = { ...OPEN_GATE, partitioned: true };
      expect(await toLn.call<string>('chain_sendRawTransaction', [tx.wire])).toBe(tx.hash);
      await new Promise((r) => setTimeout(r, 300));
      gate.state = { ...OPEN_GATE };
      const deadline = Date.now() + 5_000;
      while ((await balanceOf(toMn, to)) !== 5n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // Relayed again at the LN's next look (every 5 block times: 500 ms here), then included by the leader.
      expect(await balanceOf(toMn, to)).toBe(5n);
      expect(await balanceOf(toLn, to)).toBe(5n);
    } finally {
      await Promise.all([toLn.close(), toMn.close()]);
    }
  }, 30_000);
});
