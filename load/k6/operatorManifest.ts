/**
 * A distributed k6 run on Kubernetes, as the k6-operator takes it: a ConfigMap holding the script made by
 * `chainrpc load k6` and its data files (the corpus), and a TestRun that runs it on `parallelism` pods. The
 * operator gives each pod its own --execution-segment, so the pods' summaries (handleSummary, written under
 * CHAINRPC_SUMMARY_DIR) add up to the whole test with `chainrpc load merge`.
 *
 * The TestRun's fields are the operator's own (grafana/k6-operator, api/v1alpha1/testrun_types.go, TestRunSpec):
 *   - `parallelism` (int32, required) and `script` (required), here `script.configMap.{name, file}`: the
 *     ConfigMap is mounted whole at /test in every pod (pkg/resources/jobs: a ConfigMapVolumeSource without
 *     `items`, so every key is a file beside the script: the script opens its data files by their key);
 *   - `arguments`: one string, split on spaces, passed to `k6 run` (pkg/types/k6cli.go knows
 *     `--no-usage-report` and leaves it out of the initializer's `k6 archive`);
 *   - `runner`: a Pod (env []EnvVar, volumes []Volume, volumeMounts []VolumeMount), appended to what the
 *     operator sets itself (pkg/resources/jobs/runner.go: the script volume "k6-test-volume" at /test).
 * Never cloud: no `--out cloud`, no `cloud`/`token` fields; usage reports off by flag and by K6_NO_USAGE_REPORT.
 *
 * The operator names what it makes after the TestRun: jobs `<name>-initializer`, `<name>-starter`,
 * `<name>-<i>` (also each pod's hostname) and services `<name>-service-<i>`, i from 1 to parallelism. Each
 * must be a DNS label of at most 63 characters, so the name is checked with its longest suffix.
 *
 * The YAML is written here, without a library: every string double-quoted with YAML's escapes (so no value
 * is ever read as a number, a boolean or null, by a YAML 1.1 or 1.2 parser), file contents as literal block
 * scalars (`|`) where that keeps them byte for byte (chomping and indentation indicators as needed), and as a
 * double-quoted string otherwise (a carriage return, a control character, a line break of YAML 1.1 only).
 * Why no library: this is the product's only YAML, written and never read, in one known shape; js-yaml stays a
 * dev dependency, and operatorManifest.test.ts reads every manifest back with it (YAML 1.1 and 1.2, fuzzed).
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

export class OperatorManifestError extends ChainrpcError {
  override readonly name = 'OperatorManifestError';
  readonly kind = 'usage';
}

export interface OperatorManifestOptions {
  /** The TestRun's and the ConfigMap's name: a DNS label (lower case letters, digits and "-", from a letter). */
  name: string;
  /** k6 pods (instances); each runs an equal execution segment. */
  parallelism: number;
  /** ConfigMap keys (file names, `[-._a-zA-Z0-9]+`) to contents: the script and its data files. */
  files: Record<string, string>;
  /** The key of the script among `files`. */
  script: string;
  /**
   * A PersistentVolumeClaim mounted at /summaries in every runner pod, where each pod's handleSummary writes its
   * summary for `chainrpc load merge`. Pods on several nodes need a ReadWriteMany claim.
   */
  summaryClaim?: string;
  namespace?: string;
}

/** Where runner pods write their summaries (CHAINRPC_SUMMARY_DIR). */
export const SUMMARY_DIR = '/summaries';
/** A ConfigMap holds at most 1 MiB (Kubernetes; the k6-operator docs say so of scripts in a ConfigMap). */
export const CONFIGMAP_MAX_BYTES = 1_048_576;
const MAX_PARALLELISM = 10_000;

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CONFIGMAP_KEY = /^[-._a-zA-Z0-9]+$/;

// ---------------------------------------------------------------------------------------------------------
// A small YAML emitter

/** File contents to write as a literal block scalar where possible. */
class FileText {
  constructor(readonly text: string) {}
}

type YamlValue = string | number | FileText | YamlValue[] | { [key: string]: YamlValue };

/** YAML 1.2's printable characters (c-printable). */
const printable = (c: number): boolean =>
  c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c <= 0x7e) || c === 0x85 || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
/** Characters written escaped even where printable: line breaks of YAML 1.1 (NEL, LS, PS) and the byte order mark. */
const ESCAPED = new Set([0x85, 0x2028, 0x2029, 0xfeff]);

const hex = (c: number, digits: number): string => c.toString(16).toUpperCase().padStart(digits, '0');

/** A double-quoted scalar: every character that is not plainly printable as itself is escaped. */
function quoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (printable(c) && !ESCAPED.has(c)) out += ch;
    else out += c <= 0xff ? `\\x${hex(c, 2)}` : c <= 0xffff ? `\\u${hex(c, 4)}` : `\\U${hex(c, 8)}`;
  }
  return `${out}"`;
}

/** Words that a YAML 1.1 parser reads as booleans or null when plain. */
const RESERVED = /^(y|yes|n|no|true|false|on|off|null)$/i;
/** A mapping key: plain when nothing can read it as anything but a string (a letter first, then letters, digits, "-", "_", "."), else quoted. */
const key = (k: string): string => (/^[A-Za-z][-A-Za-z0-9._]*$/.test(k) && !RESERVED.test(k) ? k : quoted(k));

/** Whether `text` survives a literal block scalar byte for byte: lines and printable characters only. */
function blockable(text: string): boolean {
  if (!text.includes('\n') || /^\n*$/.test(text)) return false;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0x0d || ESCAPED.has(c) || !printable(c)) return false;
  }
  return true;
}

/**
 * A literal block scalar's header and lines, its content `indent` spaces in. The indentation indicator is
 * given when the first line starts with a space or is empty (a parser would otherwise guess the indentation
 * from it); the chomping indicator keeps exactly the trailing line breaks the text has.
 */
function block(text: string, indent: number, parentIndent: number): string[] {
  const trailing = /\n*$/.exec(text)?.[0].length ?? 0;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const indicator = /^[ \n]/.test(text) ? String(indent - parentIndent) : '';
  const body = trailing === 0 ? text : text.slice(0, -1);
  const pad = ' '.repeat(indent);
  return [`|${indicator}${chomp}`, ...body.split('\n').map((line) => (line === '' ? '' : pad + line))];
}

function scalar(v: string | number): string {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`YAML emitter: only whole numbers are written; got ${v}`);
    return String(v);
  }
  return quoted(v);
}

/** A mapping's lines at `indent`. */
function mapping(o: { [key: string]: YamlValue }, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    const head = `${pad}${key(k)}:`;
    if (v instanceof FileText) {
      if (blockable(v.text)) {
        const [header = '', ...rest] = block(v.text, indent + 2, indent);
        lines.push(`${head} ${header}`, ...rest);
      } else lines.push(`${head} ${quoted(v.text)}`);
    } else if (Array.isArray(v)) {
      if (v.length === 0) lines.push(`${head} []`);
      else lines.push(head, ...sequence(v, indent + 2));
    } else if (typeof v === 'object') {
      if (Object.keys(v).length === 0) lines.push(`${head} {}`);
      else lines.push(head, ...mapping(v, indent + 2));
    } else lines.push(`${head} ${scalar(v)}`);
  }
  return lines;
}

/** A sequence's lines at `indent` ("- " then the item; a mapping item's first key on the dash's line). */
function sequence(items: YamlValue[], indent: number): string[] {
  const pad = ' '.repeat(indent);
  return items.flatMap((item) => {
    if (item instanceof FileText || Array.isArray(item)) throw new Error('YAML emitter: a sequence holds scalars and mappings only');
    if (typeof item !== 'object') return [`${pad}- ${scalar(item)}`];
    const [first = '', ...rest] = mapping(item, indent + 2);
    return [`${pad}- ${first.slice(indent + 2)}`, ...rest];
  });
}

// ---------------------------------------------------------------------------------------------------------

function check(o: OperatorManifestOptions): void {
  const fail = (message: string): never => {
    throw new OperatorManifestError(message);
  };
  if (!Number.isSafeInteger(o.parallelism) || o.parallelism < 1 || o.parallelism > MAX_PARALLELISM) fail(`parallelism must be a whole number from 1 to ${MAX_PARALLELISM}; got ${o.parallelism}`);
  const longest = Math.max('-initializer'.length, `-service-${o.parallelism}`.length);
  if (!DNS_LABEL.test(o.name) || o.name.length > 63 - longest) {
    fail(`name ${JSON.stringify(o.name)} cannot name a TestRun: use lower case letters, digits and "-", starting with a letter and ending with a letter or digit, at most ${63 - longest} characters (the operator names its jobs and services <name>-initializer, <name>-<i>, <name>-service-<i>)`);
  }
  if (o.namespace !== undefined && !(NAMESPACE.test(o.namespace) && o.namespace.length <= 63)) fail(`namespace ${JSON.stringify(o.namespace)} is not a Kubernetes namespace name (lower case letters, digits and "-", at most 63 characters)`);
  if (o.summaryClaim !== undefined && !(DNS_SUBDOMAIN.test(o.summaryClaim) && o.summaryClaim.length <= 253)) fail(`summaryClaim ${JSON.stringify(o.summaryClaim)} is not a PersistentVolumeClaim name (lower case letters, digits, "-" and ".")`);
  const keys = Object.keys(o.files);
  for (const k of keys) {
    if (!CONFIGMAP_KEY.test(k) || k === '.' || k === '..' || k.startsWith('..') || k.length > 253) fail(`file name ${JSON.stringify(k)} cannot be a ConfigMap key: use letters, digits, "-", "_" and "." only (not "." or "..", nor a leading ".."), at most 253 characters`);
  }
  if (!Object.hasOwn(o.files, o.script)) fail(`the script ${JSON.stringify(o.script)} is not among the files (${keys.map((k) => JSON.stringify(k)).join(', ') || 'none'})`);
  const bytes = keys.reduce((n, k) => n + Buffer.byteLength(k) + Buffer.byteLength(o.files[k] ?? ''), 0);
  if (bytes > CONFIGMAP_MAX_BYTES) fail(`the files come to ${bytes} bytes; a ConfigMap holds at most ${CONFIGMAP_MAX_BYTES} (1 MiB): use a smaller corpus, or serve the files from a volume claim`);
}

/**
 * Two YAML documents for `kubectl apply -f`: the ConfigMap of the script and its files, and the k6-operator
 * TestRun that runs the script on `parallelism` pods. Throws OperatorManifestError on a name Kubernetes would
 * refuse (or that could break out of the YAML), a file name that is not a ConfigMap key, a script not among the
 * files, or files over a ConfigMap's 1 MiB.
 */
export function operatorManifest(o: OperatorManifestOptions): string {
  check(o);
  const metadata = { name: o.name, ...(o.namespace === undefined ? {} : { namespace: o.namespace }) };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata,
    data: Object.fromEntries(Object.keys(o.files).sort().map((k) => [k, new FileText(o.files[k] ?? '')])),
  };
  const volume = 'chainrpc-summaries';
  const testRun = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata,
    spec: {
      parallelism: o.parallelism,
      script: { configMap: { name: o.name, file: o.script } },
      arguments: '--no-usage-report',
      runner: {
        // Without a claim the summaries stay in each runner's working directory (and its log line names them).
        // Each runner runs an equal segment: CHAINRPC_SHARE lets the script judge its share of the drop limits.
        env: [
          { name: 'K6_NO_USAGE_REPORT', value: 'true' },
          ...(o.parallelism === 1 ? [] : [{ name: 'CHAINRPC_SHARE', value: `1/${o.parallelism}` }]),
          ...(o.summaryClaim === undefined ? [] : [{ name: 'CHAINRPC_SUMMARY_DIR', value: SUMMARY_DIR }]),
        ],
        ...(o.summaryClaim === undefined
          ? {}
          : {
              volumes: [{ name: volume, persistentVolumeClaim: { claimName: o.summaryClaim } }],
              volumeMounts: [{ name: volume, mountPath: SUMMARY_DIR }],
            }),
      },
    },
  };
  return ['---', ...mapping(configMap, 0), '---', ...mapping(testRun, 0), ''].join('\n');
}
