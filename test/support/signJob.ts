/** A small signing job for the corpus's signing tests (load/corpus/SigningPool*.test.ts), and its answer signed in this thread. */
import { laneSigner, signLane } from '../../load/corpus/signLanes.js';
import type { SignJob } from '../../load/corpus/signLanes.js';

export const SIGN_JOB: SignJob = {
  seed: 'pool-test',
  chainId: '7',
  value: '5',
  fee: '1000',
  recipients: ['aa'.repeat(32), 'bb'.repeat(32), 'cc'.repeat(32)],
  lanes: Array.from({ length: 5 }, (_, index) => ({ index, firstNonce: index * 3, count: 4 })),
};

/** The job signed in this thread: what every thread must produce, byte for byte. */
export async function signInThread(): Promise<string[]> {
  const signer = await laneSigner({ kind: 'reference' });
  return SIGN_JOB.lanes.map((lane) => signLane(signer, SIGN_JOB, lane).text);
}
