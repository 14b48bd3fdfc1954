import type { JsonValue } from '../../core/json/index.js';
import { PROFILE_KEYS } from '../loadProfile.js';
import type { Confidence, Finding } from './Finding.js';

/** The `$detect` member of a detected profile: how and when it was detected, and the evidence per key. */
export interface DetectReport {
  url: string;
  /** ISO 8601 time the detection started. */
  at: string;
  tool: string;
  findings: Record<string, { value: JsonValue; confidence: Confidence; evidence: string }>;
}

/** A profile file's JSON (profile/loadProfile.ts reads it), plus the `$detect` annotation it ignores. */
export type DetectedProfileJson = { name: string; $detect: DetectReport } & { [key: string]: JsonValue | DetectReport };

/** Keys whose value is an object made of sub-findings ("http.notification" -> http.notification). */
const COMPOSED = new Set(['http', 'params', 'health', 'errorCodes']);

/** A value JSON.stringify can write: bigints become numbers when exact, else decimal strings (the loader reads both). */
function plain(value: JsonValue): JsonValue {
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/**
 * The profile JSON from the findings: every written finding at its key (a dotted key goes into its
 * composed object: `http.notification`, `errorCodes.InvalidParams/address`), keys in the order of
 * PROFILE_KEYS, `name` first and `$detect` (every finding, written or not) last.
 */
export function buildProfileJson(name: string, findings: readonly Finding[], report: Omit<DetectReport, 'findings'>): DetectedProfileJson {
  const top = new Map<string, JsonValue>();
  const composed = new Map<string, Record<string, JsonValue>>();
  for (const f of findings) {
    if (!f.written) continue;
    const dot = f.key.indexOf('.');
    if (dot === -1) {
      top.set(f.key, plain(f.value));
      continue;
    }
    const head = f.key.slice(0, dot);
    if (!COMPOSED.has(head)) continue;
    const inner = composed.get(head) ?? {};
    inner[f.key.slice(dot + 1)] = plain(f.value);
    composed.set(head, inner);
  }
  const out: { [key: string]: JsonValue | DetectReport } = { name };
  for (const key of PROFILE_KEYS) {
    if (key === 'name') continue;
    const value = composed.get(key) ?? top.get(key);
    if (value !== undefined) out[key] = value;
  }
  const detect: DetectReport = { ...report, findings: {} };
  for (const f of findings) detect.findings[f.key] = { value: plain(f.value), confidence: f.confidence, evidence: f.evidence };
  out.$detect = detect;
  return out as DetectedProfileJson;
}
