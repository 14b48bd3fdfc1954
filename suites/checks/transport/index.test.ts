import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_CATALOGUE } from '../../../reference-node/faults/faultCatalogue.js';
import { LEVELS } from '../../model.js';
import { runChecks, startTestNode } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { discoveryChecks } from '../discovery.js';
import { batches, errors, http, ids, notifications, transportChecks } from './index.js';
import { expectAllPass, FAULT_CASES, PROXY_CAUGHT } from '../../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

const all = [...transportChecks, ...discoveryChecks];

describe('the transport and discovery catalogue', () => {
  it('transportChecks holds every transport check once, in file order', () => {
    expect(transportChecks).toEqual([...ids, ...errors, ...batches, ...notifications, ...http]);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
  });

  it('each check is well-formed: id, category, level, scope, title, spec', () => {
    for (const c of all) {
      const area = c.id.split('/')[0];
      expect(['transport', 'discovery'], c.id).toContain(area);
      expect(c.category, c.id).toBe(area);
      expect(c.id, c.id).toMatch(/^[a-z]+\/[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(LEVELS, c.id).toContain(c.level);
      expect(c.scope, c.id).toBe('node');
      expect(c.title.length, c.id).toBeGreaterThan(10);
      expect(c.spec, c.id).toMatch(/JSON-RPC 2\.0 §|spec: |profile: /);
      // PROFILE checks cite the profile; MUST checks cite JSON-RPC 2.0 or the spec, never the profile alone.
      if (c.level === 'PROFILE') expect(c.spec, c.id).toMatch(/profile: /);
      if (c.level === 'MUST') expect(c.spec, c.id).toMatch(/JSON-RPC 2\.0 §|spec: /);
    }
  });

  it('every check is shown to fail: on a catalogue fault, or through a rewriting proxy', () => {
    const caught = new Set([...FAULT_CASES.flatMap((c) => Object.keys(c.catches)), ...PROXY_CAUGHT]);
    expect(all.map((c) => c.id).filter((id) => !caught.has(id))).toEqual([]);
    expect([...caught].filter((id) => !all.some((c) => c.id === id))).toEqual([]);
  });

  it('every transport and discovery fault of the catalogue is caught by some check', () => {
    const tested = new Set<string>(FAULT_CASES.map((c) => c.fault));
    const faults = FAULT_CATALOGUE.filter((f) => f.category === 'transport' || f.category === 'discovery').map((f) => f.name);
    expect(faults.filter((f) => !tested.has(f))).toEqual([]);
  });

  it('all pass together against the reference node', async () => {
    expectAllPass(await runChecks(all, [node.url]), all.length);
  });
});
