import { describe, expect, it } from 'vitest';
import { defineCheck, type Check } from '../Check.js';
import { planJobs } from './planJobs.js';

const check = (id: string, category: Check['category'], flow?: string): Check =>
  defineCheck({ id, level: 'MUST', category, scope: 'node', title: id, spec: 'test', ...(flow === undefined ? {} : { flow }), run: () => Promise.resolve() });

describe('planJobs', () => {
  it('starts the checks that wait for blocks first, each node\'s in catalogue order, and keeps a flow\'s checks together', () => {
    const checks = [check('transport/a', 'transport'), check('state/b', 'state', 'wallet'), check('chain_health/c', 'methods'), check('chain/d', 'chain'), check('state/e', 'state', 'wallet')];
    const { jobs, immediate } = planJobs(checks, ['n1', 'n2'], new Map());
    expect(immediate).toEqual([]);
    expect(jobs.map((j) => `${j.node}:${j.checks.map((c) => c.id).join('+')}`)).toEqual([
      'n1:state/b+state/e',
      'n1:chain/d',
      'n2:state/b+state/e',
      'n2:chain/d',
      'n1:transport/a',
      'n1:chain_health/c',
      'n2:transport/a',
      'n2:chain_health/c',
    ]);
  });
});
