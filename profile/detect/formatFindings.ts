import { stringifyJson } from '../../core/json/index.js';
import { camelCase } from '../Profile.js';
import { clip } from './describe.js';
import type { Finding } from './Finding.js';

/**
 * Rows the table leaves out because another row says it: a field spelled as keyCase says (or never
 * seen), a condition answered with the InvalidParams code itself. The JSON's $detect keeps them all.
 */
function unremarkable(f: Finding): boolean {
  if (f.key.startsWith('fields.')) {
    const name = f.key.slice('fields.'.length);
    return f.basis === 'default' || f.value === name || f.value === camelCase(name);
  }
  return f.key.startsWith('errorCodes.') && f.key.includes('/') && !f.written;
}

/**
 * The findings as a table for people: key, value, confidence, evidence (one line each, cut to fit),
 * then the keys left to the reference defaults because nothing from outside can show them.
 */
export function formatFindings(findings: readonly Finding[], width = 200): string {
  const rows = findings.filter((f) => !unremarkable(f));
  const keyWidth = Math.min(40, Math.max(3, ...rows.map((f) => f.key.length)));
  const valueText = (f: Finding): string => clip(f.value === null ? 'null' : stringifyJson(f.value), 30);
  const valueWidth = Math.min(30, Math.max(5, ...rows.map((f) => valueText(f).length)));
  const lines = [`${'key'.padEnd(keyWidth)}  ${'value'.padEnd(valueWidth)}  ${'conf'.padEnd(6)}  evidence`];
  const evidenceWidth = Math.max(40, width - keyWidth - valueWidth - 12);
  for (const f of rows) {
    const mark = f.written ? '' : '(not written) ';
    lines.push(`${clip(f.key, keyWidth).padEnd(keyWidth)}  ${valueText(f).padEnd(valueWidth)}  ${f.confidence.padEnd(6)}  ${clip(mark + f.evidence.replace(/\s+/g, ' '), evidenceWidth)}`);
  }
  const defaults = findings.filter((f) => f.basis === 'default' && !f.key.startsWith('fields.')).map((f) => f.key);
  if (defaults.length > 0) lines.push('', `Left to the reference defaults (not found from outside, or not probed): ${defaults.join(', ')}`);
  return lines.join('\n');
}

/** A detection in one line: "78 high, 2 medium, 6 low confidence; 143 requests in 2.5 s". */
export function detectSummary(result: { findings: readonly Finding[]; requests: number; elapsedMs: number }): string {
  const count = (c: Finding['confidence']): number => result.findings.filter((f) => f.confidence === c).length;
  return `${count('high')} high, ${count('medium')} medium, ${count('low')} low confidence; ${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s`;
}
