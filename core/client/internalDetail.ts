/**
 * What a server's internals look like when they leak into an answer (CWE-209): stack frames of the
 * common runtimes, file paths of a server's disk, and exception class names with their message. The
 * patterns are specific on purpose: a word like "error" or "invalid" in a message is what messages are
 * for, and must not trip them.
 */
/**
 * A pattern's `needs`: what every match of it holds (literals, one at least, or a faster pattern), looked for
 * first; a text without it is not searched with the pattern at all. Given where the pattern itself is slow on a
 * long answer (a 27 KB rpc.discover document: an alternation of literals, a lookbehind, a pattern led by `\b`),
 * measured against the cost of the literals' own searches. The patterns alone decide (a test holds the two
 * readings equal).
 */
export const PATTERNS: readonly { kind: string; re: RegExp; needs?: readonly string[] | RegExp }[] = [
  // JavaScript: "    at handle (/srv/app/server.js:12:7)", "at node:internal/...", "at file:///..."
  { kind: 'a stack trace', re: /\bat (?:[\w$.<>[\] ]{1,200} \()?(?:\/|[A-Za-z]:\\|file:\/\/|node:)[^\s)]*:\d+(?::\d+)?/, },
  // Python, Go, Java, .NET, Rust
  { kind: 'a stack trace', re: /Traceback \(most recent call last\)|File "[^"]+", line \d+/, needs: ['Traceback (', 'File "'] },
  { kind: 'a stack trace', re: /goroutine \d+ \[|\bpanic: |\.go:\d+ \+0x[0-9a-f]+/ },
  { kind: 'a stack trace', re: /\bat [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)|Exception in thread "/ },
  { kind: 'a stack trace', re: /\bat [\w.]{1,200}\(.{0,200}\) in [^\s]{1,300}:line \d+/, needs: [':line '] },
  { kind: 'a stack trace', re: /thread '[^']+' panicked at /, needs: ["' panicked at "] },
  // A source file and line: "server.js:12", "handler.py:40", "main.rs:7:3"
  // (Matched from the start of a name only, and names of at most 200 characters: a run of 48,000 digits in an
  // answer must cost one pass, not one per character.)
  { kind: 'a source file and line', re: /(?<![\w-])[\w-]{1,200}\.(?:js|mjs|cjs|ts|py|go|java|kt|rs|rb|php|cs|cpp|c|h):\d+/, needs: /\.(?:js|mjs|cjs|ts|py|go|java|kt|rs|rb|php|cs|cpp|c|h):\d/ },
  // Absolute paths of a server's disk
  { kind: 'a server file path', re: /(?:^|[\s"'(=:])\/(?:home|usr|srv|opt|var|root|Users|app|src|etc|tmp|workspace|build)\/[\w.@/-]+/, needs: /\/(?:home|usr|srv|opt|var|root|Users|app|src|etc|tmp|workspace|build)\// },
  { kind: 'a server file path', re: /\b[A-Za-z]:\\(?:Users|Program Files|inetpub|src|app)\\/, needs: [':\\'] },
  { kind: 'a server file path', re: /node_modules[/\\]/ },
  // An exception's class and message: "TypeError: Cannot read properties of undefined"
  { kind: 'internal exception text', re: /\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|Uncaught|NullPointerException|KeyError|AttributeError|IndexError): \S/, needs: ['Error: ', 'Exception: ', 'Uncaught: '] },
  { kind: 'internal exception text', re: /Cannot read propert(?:y|ies) of (?:undefined|null)|is not a function|Maximum call stack size exceeded|NoneType|nil pointer dereference|index out of range/, needs: ['Cannot read propert', 'is not a function', 'Maximum call stack size exceeded', 'NoneType', 'nil pointer dereference', 'index out of range'] },
];

/**
 * What every match of some pattern above holds: one search of the text for any of them, where most texts (short
 * JSON-RPC answers) hold none and are done with: a literal or a short pattern per pattern (a JavaScript frame's
 * path after "at " or " ("; a Java frame's file; "at most" in a message passes none). The test holds the readings
 * with and without it equal.
 */
const ANY_NEED =
  /(?:at | \()(?:\/|[A-Za-z]:\\|file:\/\/|node:)|' panicked at |Traceback \(|File "|goroutine |panic: |Exception in thread "|:line |\.(?:js|mjs|cjs|ts|py|go|java|kt|scala|rs|rb|php|cs|cpp|c|h):\d|\/(?:home|usr|srv|opt|var|root|Users|app|src|etc|tmp|workspace|build)\/|:\\|node_modules[/\\]|Error: |Exception: |Uncaught: |Cannot read propert|is not a function|Maximum call stack size exceeded|NoneType|nil pointer dereference|index out of range/;

/** The first internal detail in a text, with where it is; undefined when the text shows none. */
export function internalDetail(text: string): { kind: string; excerpt: string } | undefined {
  if (!ANY_NEED.test(text)) return undefined;
  for (const { kind, re, needs } of PATTERNS) {
    if (needs !== undefined && !(needs instanceof RegExp ? needs.test(text) : needs.some((literal) => text.includes(literal)))) continue;
    const m = re.exec(text);
    if (m) {
      const start = Math.max(0, m.index - 20);
      return { kind, excerpt: text.slice(start, m.index + m[0].length + 40) };
    }
  }
  return undefined;
}
