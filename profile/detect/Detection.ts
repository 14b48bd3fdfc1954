/**
 * What the steps of one detection share: the prober, the findings so far, the warnings, what the later
 * decisions read, and the step runner that ends the detection at the deadline. Apart from detectProfile.ts
 * so that the probe groups in their own files (probeReads.ts, probeSends.ts, probeLimits.ts) take it
 * without importing detectProfile.ts.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { TxCodec } from '../TxCodec.js';
import type { FieldObservation } from './decideFields.js';
import type { Finding } from './Finding.js';
import { DeadlineReached } from './Prober.js';
import type { Prober } from './Prober.js';
import type { Read } from './readResults.js';

export class Detection {
  /** The findings so far, by key (a later finding of a key replaces the earlier one). */
  readonly found = new Map<string, Finding>();
  readonly warnings: string[] = [];
  /** The reads of the height that sampled the block time (DetectResult.heightReads). */
  heightReads = 0;
  /** A step ran into the deadline: the steps after it are skipped and keep the reference defaults. */
  stopped = false;
  /** Addresses the detection sent the node (for the hex-case decision). */
  readonly sentAddresses: string[] = [];
  /** Results seen, for the hex-case decision: the faucet's and the transactions', then the reads' (decided last). */
  readonly results: JsonValue[] = [];
  /** Hashes as the node wrote them in results (a block's, the faucet's and the transactions'), for the hashPrefix decision. */
  readonly hashes: JsonValue[] = [];
  /** Results of the faucet and the transactions, to read field names from (beside the reads). */
  readonly observations: FieldObservation[] = [];
  /** The account the faucet funded, read once the chain showed it (an object): its integers count too (detectIntegers). */
  fundedAccount: Read | undefined;

  constructor(
    readonly prober: Prober,
    readonly codec: TxCodec,
    private readonly signal: AbortSignal | undefined,
  ) {}

  add(fs: readonly Finding[]): void {
    for (const f of fs) this.found.set(f.key, f);
  }

  /** Runs one detection step, unless an earlier one stopped the detection; a step that fails costs only its own keys. */
  async step(name: string, run: () => Promise<void>): Promise<void> {
    if (this.stopped) return;
    this.prober.progress(`${name} ...`);
    try {
      await run();
      // Steps that stop gracefully (the bisections keep their bounds) still end the detection here.
      if (this.prober.remainingMs() <= 0 || this.signal?.aborted === true) {
        this.stopped = true;
        this.warnings.push(`${name}: cut short by the deadline; the probes after it keep the reference defaults`);
      }
    } catch (error) {
      if (error instanceof DeadlineReached) {
        this.stopped = true;
        this.warnings.push(`${name}: not finished (${error.message}); it and the probes after it keep the reference defaults`);
        return;
      }
      // A probe that breaks on an answer it did not foresee must not cost the rest of the draft.
      this.warnings.push(`${name}: failed (${error instanceof Error ? error.message : String(error)}); its keys keep the reference defaults`);
    }
  }
}
