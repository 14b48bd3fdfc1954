// The dependency rule (ARCHITECTURE.md, "Layers"), enforced: each folder lists what it must not import.
// Lower layers never import higher ones; the description of a node (profile/) sits on core/ alone, for
// every user of it (suites/, load/, cli/, reports/, ...); the checker (suites/) never imports what it checks
// (reference-node/); load/ never leans sideways on suites/; nothing but tests imports test helpers (test/).
// A wrong-way import fails `npm run lint` (test/layers.test.ts proves it by linting one). The rule reads
// static imports only: test/layers.test.ts judges each dynamic `import('…')` of product code by this table.

/**
 * An import of a folder of the repository, as a regular expression over the import's text: `../../suites/x.js`
 * from anywhere, and a sibling such as `../faults/x.js` from reference-node/node/.
 */
const at = (folders) => {
  const names = folders.map((f) => f.replace('reference-node/', '(?:reference-node/)?').replace(/\//g, '\\/'));
  return `^(?:\\.\\./)+(?:${names.join('|')})(?:/|$)`;
};

/** [files, forbidden folders, why] for product code (tests may import across layers). */
export const LAYERS = [
  ['core/**', ['profile', 'reference-node', 'suites', 'reports', 'load', 'fuzz', 'cli'], 'core/ is the bottom layer: it imports no other folder of the project'],
  ['profile/**', ['reference-node', 'suites', 'reports', 'load', 'fuzz', 'cli'], 'profile/ describes a node for all its users (suites/, load/, cli/, reports/, ...): it imports core/ only'],
  ['suites/**', ['reference-node', 'reports', 'load', 'fuzz', 'cli'], 'the suite checks nodes from outside: it never imports the reference node (what it checks), nor the layers above it'],
  ['reports/**', ['reference-node', 'cli'], 'reports render results; they import core/, profile/ and the result models of the suite, of load/ and of fuzz/ only'],
  ['load/**', ['reference-node', 'suites', 'reports', 'fuzz', 'cli'], 'load scenarios drive nodes from outside, like the suite, and read a node\'s description from profile/, never from suites/; the CLI hands their results to reports/'],
  ['fuzz/**', ['reference-node', 'suites', 'reports', 'load', 'cli'], 'the fuzzer drives nodes from outside, like the suite and load, beside them: it reads a node\'s description from profile/ and nothing from the suite or load'],
  ['load/metrics/**', [], 'load/metrics/ is the harness\'s accounting'],
  ['load/health/**', [], 'load/health/ watches the node itself during a run (its head, its process)'],
  ['reference-node/**', ['profile', 'suites', 'reports', 'load', 'fuzz', 'cli'], 'the reference node is checked by the suite and must not lean on it, nor on the profile its checkers read (what both share is in core/)'],
  ['reference-node/store/**', ['reference-node/chain', 'reference-node/rpc', 'reference-node/methods', 'reference-node/p2p', 'reference-node/node', 'reference-node/faults', 'reference-node/devnet'], 'store/ is the generic key-value store under the chain'],
  ['reference-node/chain/**', ['reference-node/rpc', 'reference-node/methods', 'reference-node/p2p', 'reference-node/node', 'reference-node/faults', 'reference-node/devnet'], 'chain/ is state and blocks; it knows nothing of the network or of JSON-RPC'],
  ['reference-node/rpc/**', ['reference-node/store', 'reference-node/chain', 'reference-node/methods', 'reference-node/p2p', 'reference-node/node', 'reference-node/faults', 'reference-node/devnet'], 'rpc/ is JSON-RPC over HTTP for any method table'],
  ['reference-node/p2p/**', ['reference-node/methods', 'reference-node/node', 'reference-node/faults', 'reference-node/devnet'], 'p2p/ is the peer protocol over the chain'],
  ['reference-node/methods/**', ['reference-node/node', 'reference-node/faults', 'reference-node/devnet'], 'methods/ are handlers over NodeContext, below the node that wires them'],
  ['reference-node/node/**', ['reference-node/faults', 'reference-node/devnet'], 'the node knows no fault: faults/ is a layer on top of it'],
  ['reference-node/faults/**', ['reference-node/devnet'], 'faults/ bends the node\'s seams; the devnet composes both'],
];

const TEST_HELPERS = { regex: at(['test']), message: 'test helpers are for tests only (test/support/)' };

/** Each library has one home: only it imports the library (core/ is the home of ajv and undici). */
const LIBRARIES = [
  { name: 'ajv', home: 'core', message: 'schemas are compiled in core/schema/ only' },
  { name: 'undici', home: 'core', message: 'HTTP goes through core/client/ only' },
  { name: 'hdr-histogram-js', home: 'load/metrics', message: 'histograms are kept by load/metrics/ only' },
  { name: 'prom-client', home: 'reference-node/node', message: 'the reference node\'s Prometheus metrics are kept by reference-node/node/NodeMetrics.ts only' },
  { name: 'parse-prometheus-text-format', home: 'load/health', message: 'a node\'s Prometheus metrics are read by load/health/metricsSource.ts only' },
];

/**
 * ESLint blocks, one per folder of LAYERS. ESLint lets the last matching block's options win, so each
 * block carries everything that applies to its folder: its own ban, its parents' (reference-node/'s
 * for reference-node/chain/), test helpers, and the libraries (except in each library's home).
 */
export function layerRules() {
  return LAYERS.map(([files, forbidden, message]) => {
    const own = files.replace('/**', '');
    const parents = LAYERS.filter(([other]) => other !== files && own.startsWith(other.replace('/**', '') + '/'));
    const patterns = [...(forbidden.length > 0 ? [{ regex: at(forbidden), message }] : []), ...parents.map(([, f, why]) => ({ regex: at(f), message: why })), TEST_HELPERS];
    const paths = LIBRARIES.filter((l) => own !== l.home && !own.startsWith(l.home + '/')).map(({ name, message }) => ({ name, message }));
    return {
      files: [files],
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
    };
  });
}
