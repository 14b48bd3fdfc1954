import { referenceProfile } from '../referenceProfile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';

/**
 * http.error and http.errorByCode: the HTTP status of JSON-RPC answers that carry an error, from every
 * error code the detection saw (one vote per code, not per answer, so that the many probes of one
 * error do not outvote the others). `error` is the status most codes came with (200 on a tie: JSON-RPC
 * over HTTP usually answers every JSON-RPC response with it); `errorByCode` lists the codes that came
 * with another. Codes never seen (an internal error) cannot be listed.
 */
export function decideErrorStatuses(statuses: ReadonlyMap<number, number>): Finding[] {
  if (statuses.size === 0) {
    const reference = referenceProfile().http;
    return [fallback('http.error', reference.error, 'no JSON-RPC error answer was seen'), fallback('http.errorByCode', {}, 'no JSON-RPC error answer was seen')];
  }
  const votes = new Map<number, number[]>();
  for (const [code, status] of statuses) votes.set(status, [...(votes.get(status) ?? []), code]);
  const ranked = [...votes.entries()].sort(([sa, a], [sb, b]) => b.length - a.length || Number(sb === 200) - Number(sa === 200) || sa - sb);
  const [error, codes] = ranked[0] as [number, number[]];
  const errorByCode: Record<string, number> = {};
  for (const [code, status] of [...statuses.entries()].sort(([a], [b]) => b - a)) if (status !== error) errorByCode[String(code)] = status;
  const others = Object.entries(errorByCode).map(([c, s]) => `${c} with HTTP ${s}`);
  const list = (cs: number[]): string => (cs.length > 6 ? `${cs.slice(0, 6).join(', ')} and ${cs.length - 6} more` : cs.join(', '));
  const shared = ranked.length > 1 && (ranked[1]?.[1].length ?? 0) === codes.length;
  return [
    probed('http.error', error, shared ? 'medium' : 'high', `${statuses.size} error code(s) seen; ${codes.length} with HTTP ${error} (${list(codes)})${others.length === 0 ? '' : `; ${others.join(', ')}`}`),
    probed('http.errorByCode', errorByCode, 'high', others.length === 0 ? `every error code seen came with HTTP ${error} (codes never seen, such as an internal error, may differ)` : `${others.join(', ')} (codes never seen, such as an internal error, may differ too)`),
  ];
}
