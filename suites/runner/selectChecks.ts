import type { Check } from '../Check.js';

/** Glob match on check ids: `*` matches any run of characters (`transport/*`, `*nonce*`). */
export function matchesPattern(id: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(id);
}

/** The checks --only and --skip leave (--only: any pattern matches; --skip: none does). */
export function selectChecks(checks: readonly Check[], only: readonly string[], skip: readonly string[]): Check[] {
  return checks.filter((c) => (only.length === 0 || only.some((p) => matchesPattern(c.id, p))) && !skip.some((p) => matchesPattern(c.id, p)));
}
