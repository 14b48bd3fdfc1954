/**
 * The project's hardest test: the conformance suite proven by fault injection. Against the honest
 * reference node every check passes; against each fault-injected variant at least one check fails
 * (every conformance fault is caught), and every check fails on at least one fault (or is listed in
 * UNPROVEN with its reason). The robustness faults prove the fuzzer, not the suite: the matrix leaves
 * them out. docs/fault-matrix.md is generated from the same computation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import { CONFORMANCE_FAULTS, ROBUSTNESS_FAULTS } from '../reference-node/faults/faultCatalogue.js';
import { computeFaultMatrix, targetedFaults, UNPROVEN } from './computeFaultMatrix.js';
import type { FaultMatrix } from './computeFaultMatrix.js';

let matrix: FaultMatrix;

beforeAll(async () => {
  matrix = await computeFaultMatrix();
}, 600_000);

describe('the suite, proven by fault injection', () => {
  it('passes every check against the honest reference node (single node and a network of 2 MN + 1 LN)', () => {
    const bad = [...matrix.honest.single, ...matrix.honest.network].filter((r) => r.status === 'fail' || r.status === 'error');
    expect(bad.map((r) => `${r.id} @ ${r.node}: ${r.status}: ${r.evidence.message}`)).toEqual([]);
    // Every check gets a verdict on every node of the honest network, but those that need a leader (its own
    // identifier is the only one a client can read): they skip on the nodes that do not lead, and pass on the one that does.
    const leaderOnly = new Set(matrix.checks.filter((c) => c.needs?.includes('leader')).map((c) => c.id));
    expect(matrix.honest.network.filter((r) => r.status === 'skip' && !leaderOnly.has(r.id)).map((r) => r.id)).toEqual([]);
    for (const id of leaderOnly) expect(matrix.honest.network.filter((r) => r.id === id && r.status === 'pass').length, `${id} passed on the leader`).toBeGreaterThanOrEqual(1);
  });

  it(`catches every conformance fault of the catalogue (${CONFORMANCE_FAULTS.length}; the ${ROBUSTNESS_FAULTS.length} robustness faults are the fuzzer's)`, () => {
    expect(CONFORMANCE_FAULTS.length).toBeGreaterThanOrEqual(30);
    expect(matrix.faults.map((r) => r.fault.name)).toEqual(CONFORMANCE_FAULTS.map((f) => f.name));
    const missed = matrix.faults.filter((r) => r.caughtBy.length === 0).map((r) => `${r.fault.name} (errors: ${r.errors.join(', ') || 'none'})`);
    expect(missed).toEqual([]);
  });

  it('makes every check fail on at least one targeted fault (not one that breaks everything), or says why not', () => {
    const failedSomewhere = new Set(targetedFaults(matrix).flatMap((r) => r.caughtBy));
    const unproven = matrix.checks.map((c) => c.id).filter((id) => !failedSomewhere.has(id) && UNPROVEN[id] === undefined);
    const erredOn = (id: string): string => matrix.faults.filter((r) => r.errors.includes(id)).map((r) => `${r.fault.name} (${r.errorReasons[id] ?? ''})`).join(', ') || 'none';
    expect(unproven, unproven.map((id) => `${id} ended in error on: ${erredOn(id)}`).join('; ')).toEqual([]);
    // The exemption list stays short and truthful: an exempt check that a fault now fails must leave it.
    expect(Object.keys(UNPROVEN).filter((id) => failedSomewhere.has(id))).toEqual([]);
    expect(Object.keys(UNPROVEN).length).toBeLessThanOrEqual(5);
  });

  it('covers every category of checks with faults', () => {
    const categories = new Set(CONFORMANCE_FAULTS.map((f) => f.category));
    for (const c of ['transport', 'methods', 'chain', 'state', 'pou', 'network', 'discovery']) expect(categories.has(c as never), c).toBe(true);
  });

  it('docs/fault-matrix.md names every conformance fault and every check, and no robustness fault (regenerate with npm run gen:fault-matrix)', () => {
    const doc = readFileSync(join(packageRoot, 'docs', 'fault-matrix.md'), 'utf8');
    for (const f of CONFORMANCE_FAULTS) expect(doc, `fault ${f.name}`).toContain(`\`${f.name}\``);
    for (const f of ROBUSTNESS_FAULTS) expect(doc, `robustness fault ${f.name}`).not.toContain(`\`${f.name}\``);
    for (const c of matrix.checks) expect(doc, `check ${c.id}`).toContain(`\`${c.id}\``);
  });
});
