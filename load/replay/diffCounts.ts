/**
 * A replay diff's counts added up (ReplayDiff.ts keeps them per method in each engine thread; runEngine adds the
 * threads'): pure, so the engine can merge diffs without loading the differ.
 */
import type { DiffCounts, ReplayDiff } from '../model.js';

/** Mismatches a diff shows side by side. */
export const DIFF_EXAMPLES = 10;

/** The diff of these per-method counts (threads' counts of one method added up), the examples as given, at most DIFF_EXAMPLES. */
export function diffOf(url: string, counts: readonly DiffCounts[], examples: ReplayDiff['examples']): ReplayDiff {
  const byName = new Map<string, DiffCounts>();
  for (const c of counts) {
    const sum = byName.get(c.method) ?? { method: c.method, compared: 0, mismatches: 0, setAside: 0, notCompared: 0 };
    byName.set(c.method, { method: c.method, compared: sum.compared + c.compared, mismatches: sum.mismatches + c.mismatches, setAside: sum.setAside + c.setAside, notCompared: sum.notCompared + c.notCompared });
  }
  const byMethod = [...byName.values()].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  const total = (k: 'compared' | 'mismatches' | 'setAside' | 'notCompared'): number => byMethod.reduce((n, m) => n + m[k], 0);
  return { url, compared: total('compared'), mismatches: total('mismatches'), setAside: total('setAside'), notCompared: total('notCompared'), byMethod, examples: examples.slice(0, DIFF_EXAMPLES) };
}

