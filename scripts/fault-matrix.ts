/**
 * `npm run gen:fault-matrix`: runs the suite against every conformance fault (computeFaultMatrix leaves the
 * robustness faults, the fuzzer's proof, out) and writes docs/fault-matrix.md. It imports
 * test/computeFaultMatrix.ts on purpose: the page prints the very computation test/fault-matrix.test.ts judges.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/paths.js';
import { computeFaultMatrix, renderFaultMatrix } from '../test/computeFaultMatrix.js';

const matrix = await computeFaultMatrix((run, done, total) => {
  console.log(`${String(done).padStart(3)}/${total} ${run.fault.name.padEnd(28)} caught by ${run.caughtBy.length} check(s) in ${run.ms} ms`);
});
writeFileSync(join(packageRoot, 'docs', 'fault-matrix.md'), renderFaultMatrix(matrix));
const missed = matrix.faults.filter((r) => r.caughtBy.length === 0).map((r) => r.fault.name);
console.log(`wrote docs/fault-matrix.md${missed.length ? `; NOT CAUGHT: ${missed.join(', ')}` : ''}`);
