/**
 * `--profile detect` judges a node by what detection saw of it, and only that: a profile key detection could not
 * observe (its finding's basis is the reference default: profile/detect/Finding.ts, `fallback`) is the reference's
 * guess, not the node's choice. For error codes, that guess is not compared (the code set to null: "a profile code
 * null is not compared", docs/fuzz.md), and the run says which (FuzzRun.options.unobserved). Codes JSON-RPC 2.0
 * itself names (§5.1: -32700 to -32603) are JSON-RPC's, not the reference's, and stay judged.
 *
 * What `--profile detect` hands the fuzzer is the profile file's JSON, whose `$detect` member keeps every finding's
 * value, confidence and evidence but not its basis; a fallback is always of low confidence and a probed error code
 * never is (Finding.ts: "low: nothing was seen, the value is the reference profile's default"), so low confidence
 * is what says the basis of an error code here.
 */

/** JSON-RPC 2.0's own errors (§5.1): their codes are the spec's, whatever detection saw. */
const JSONRPC_ERRORS = new Set(['ParseError', 'InvalidRequest', 'MethodNotFound', 'InvalidParams', 'InternalError']);

type Json = { [key: string]: unknown };

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `errorCodes.<name>` keys of a detected profile's JSON that detection left to the reference default (non-null codes only). */
export function unobservedCodes(detected: Json): string[] {
  const findings = isRecord(detected.$detect) ? detected.$detect.findings : undefined;
  const codes = detected.errorCodes;
  if (!isRecord(findings) || !isRecord(codes)) return [];
  return Object.entries(findings)
    .filter(([key, f]) => key.startsWith('errorCodes.') && isRecord(f) && f.confidence === 'low')
    .map(([key]) => key)
    .filter((key) => {
      const name = key.slice('errorCodes.'.length);
      return !JSONRPC_ERRORS.has(name.split('/')[0] ?? name) && codes[name] !== null && codes[name] !== undefined;
    });
}

/** The detected profile's JSON with the codes of `keys` (errorCodes.<name>) set to null: not compared. */
export function withoutUnobserved<T extends Json>(detected: T, keys: readonly string[]): T {
  if (keys.length === 0 || !isRecord(detected.errorCodes)) return detected;
  const errorCodes: Json = { ...detected.errorCodes };
  for (const key of keys) errorCodes[key.slice('errorCodes.'.length)] = null;
  return { ...detected, errorCodes };
}
