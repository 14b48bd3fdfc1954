import type { Category, CheckResult, Exchange, RunResult, Status } from '../../suites/model.js';
import { isGating } from '../../suites/runner/verdict.js';

/**
 * The results of a run against several nodes as a grid: one row per check, one column per node. The HTML
 * report and the Markdown summary both draw it (renderHtml and renderMarkdown, for a run with more than one
 * target). Pure data: nothing here is escaped, the renderers do that.
 */

export const STATUSES: readonly Status[] = ['pass', 'fail', 'error', 'skip'];
export const CATEGORY_ORDER: readonly Category[] = ['transport', 'methods', 'chain', 'state', 'pou', 'network', 'discovery'];

/**
 * Where a row goes: `failing` (a fail or an error on some node, or on the network), `differ` (no failure,
 * but the nodes' statuses differ, or some target has no result for it), `same` (the same status on every
 * node: all pass, all skip). The reports show them in this order, `same` folded away.
 */
export type GridPart = 'failing' | 'differ' | 'same';
export const GRID_PARTS: readonly GridPart[] = ['failing', 'differ', 'same'];

export interface GridColumn {
  /** The node's base URL, as the results name it. */
  url: string;
  /** The URL shortened for a column heading (no scheme, no trailing slash); `url` when two would read the same. */
  label: string;
  /** False for a node that results name but the run's targets do not (kept so that no result is lost). */
  target: boolean;
  /** The node's results per status. */
  counts: Record<Status, number>;
}

export interface GridRow {
  id: string;
  /** The check's facts (level, category, title, spec, scope), from its first result. */
  info: CheckResult;
  /** Node scope: the result in each column (undefined where that node has none). Network scope: empty. */
  cells: (CheckResult | undefined)[];
  /** Network scope: the one result for the network. */
  network?: CheckResult;
  part: GridPart;
  /** Some result of the row fails the run at its gate. */
  gating: boolean;
}

export interface NodeGrid {
  columns: GridColumn[];
  /** Every row, ordered by part (failing, differ, same), then category (catalogue order), then the run's order. */
  rows: GridRow[];
}

const zero = (): Record<Status, number> => ({ pass: 0, fail: 0, error: 0, skip: 0 });

/** How long a column heading's URL may be: two lines of the narrowest column. */
export const LABEL_CHARS = 32;

/**
 * A node's base URL for a column heading: without its scheme and trailing slash ("127.0.0.1:8545"), and
 * when still longer than `max`, its start and its end (port and path) around an ellipsis.
 */
export function shortUrl(url: string, max = LABEL_CHARS): string {
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '') || url;
  const chars = Array.from(bare);
  if (chars.length <= max) return bare;
  const head = Math.ceil((max - 1) / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}

/** The results of a row, in column order (the network's for a network row). */
export function rowResults(row: Pick<GridRow, 'cells' | 'network'>): CheckResult[] {
  return row.network ? [row.network] : row.cells.filter((c): c is CheckResult => c !== undefined);
}

function partOf(row: Omit<GridRow, 'part' | 'gating'>, targets: number): GridPart {
  const results = rowResults(row);
  if (results.some((r) => r.status === 'fail' || r.status === 'error')) return 'failing';
  if (row.network) return 'same';
  const statuses = new Set(results.map((r) => r.status));
  const missing = row.cells.slice(0, targets).some((c) => c === undefined);
  return statuses.size > 1 || missing ? 'differ' : 'same';
}

/**
 * The grid of a run: a column per target (in --url order), then one per other node a result names (never
 * in a real run); a row per check id, in the run's order. A network-scope result (node "network") makes a
 * row of its own with no cells. Should one node have two results for one check, the second opens a
 * second row for that check: every result of the run is in exactly one place of the grid.
 */
export function nodeGrid(run: RunResult): NodeGrid {
  const columns: GridColumn[] = run.targets.map((url) => ({ url, label: url, target: true, counts: zero() }));
  const columnOf = new Map<string, number>();
  run.targets.forEach((url, i) => {
    if (!columnOf.has(url)) columnOf.set(url, i);
  });
  const isNetwork = (r: CheckResult): boolean => !columnOf.has(r.node) && (r.node === 'network' || r.scope === 'network');
  for (const r of run.results) {
    if (isNetwork(r) || columnOf.has(r.node)) continue;
    columnOf.set(r.node, columns.length);
    columns.push({ url: r.node, label: r.node, target: false, counts: zero() });
  }
  // Headings must tell the nodes apart: where two shortened URLs read the same, both are given whole.
  const labels = columns.map((c) => shortUrl(c.url));
  columns.forEach((c, i) => {
    const label = labels[i] ?? c.url;
    c.label = labels.indexOf(label) === labels.lastIndexOf(label) ? label : c.url;
  });

  // Rows by key (id, network or not), each key with its rows in order (more than one only for duplicates).
  const byKey = new Map<string, Omit<GridRow, 'part' | 'gating'>[]>();
  const built: Omit<GridRow, 'part' | 'gating'>[] = [];
  for (const r of run.results) {
    const network = isNetwork(r);
    const key = `${network ? 'n' : 'c'}\u0000${r.id}`;
    const list = byKey.get(key) ?? [];
    byKey.set(key, list);
    if (network) {
      const row = { id: r.id, info: r, cells: [], network: r };
      list.push(row);
      built.push(row);
      continue;
    }
    const column = columnOf.get(r.node) ?? 0;
    const counted = columns[column];
    if (counted) counted.counts[r.status]++;
    let row = list.find((x) => x.cells[column] === undefined);
    if (!row) {
      row = { id: r.id, info: r, cells: columns.map(() => undefined) };
      list.push(row);
      built.push(row);
    }
    row.cells[column] = r;
  }

  const rank = new Map<string, number>(CATEGORY_ORDER.map((c, i) => [c, i]));
  for (const row of built) if (!rank.has(row.info.category)) rank.set(row.info.category, rank.size);
  const rows = built
    .map((row, index) => {
      const part = partOf(row, run.targets.length);
      return { row: { ...row, part, gating: rowResults(row).some((r) => isGating(r, run.gate)) }, index };
    })
    .sort(
      (a, b) =>
        GRID_PARTS.indexOf(a.row.part) - GRID_PARTS.indexOf(b.row.part) ||
        (rank.get(a.row.info.category) ?? 0) - (rank.get(b.row.info.category) ?? 0) ||
        a.index - b.index,
    )
    .map((x) => x.row);
  return { columns, rows };
}

/** The statuses of a set of rows, counted once per row: the status every node shares (for `same` rows). */
export function sameCounts(rows: readonly GridRow[]): Record<Status, number> {
  const counts = zero();
  for (const row of rows) {
    const first = rowResults(row)[0];
    if (first) counts[first.status]++;
  }
  return counts;
}

/** "412 checks with the same result on every node (pass: 400, skip: 12)". */
export function sameLine(rows: readonly GridRow[]): string {
  const counts = sameCounts(rows);
  const parts = STATUSES.filter((s) => counts[s] > 0).map((s) => `${s}: ${counts[s]}`);
  const notes = rows.flatMap(rowResults).filter((r) => r.baseline !== undefined).length;
  if (notes > 0) parts.push(`${notes} with a baseline note`);
  return `${rows.length} check${rows.length === 1 ? '' : 's'} with the same result on every node${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/** A node as the reports name it: its URL, and the label of its column. */
export interface NodeName {
  url: string;
  label: string;
}

/** The targets of a run as named nodes (the labels a grid would give them). */
export const targetNames = (targets: readonly string[]): NodeName[] => targets.map((url) => ({ url, label: shortUrl(url) }));

/** The id of a JSON text that is one object with an id, as JSON text; undefined otherwise (not JSON, a batch, no id). */
function idOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value ? JSON.stringify(value.id) : undefined;
  } catch {
    return undefined;
  }
}

/** An exchange whose answer was no JSON-RPC answer to its request: none at all, not JSON, or an id that does not echo the request's. */
function badAnswer(e: Exchange): boolean {
  if (e.response === undefined || e.failure !== undefined) return true;
  const sent = idOf(e.request.body);
  if (sent === undefined) return false; // a batch, a notification or a malformed request: what its answer should be is the check's to say
  let answer: unknown;
  try {
    answer = JSON.parse(e.response.body);
  } catch {
    return !e.response.truncated;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return true;
  return idOf(e.response.body) !== sent;
}

/**
 * The nodes a network-scope failure came from, where its message names none: the nodes whose answer in its
 * evidence was no JSON-RPC answer to the request (none, not JSON, not an object, an id that does not
 * echo the request's), the failures a check across nodes meets in a node's answer rather than between nodes.
 * Empty when the result passed or skipped, when the message names a node already (most do: "the nodes
 * disagree …: <node> differs", "<node> chain_blockNumber: the response id does not echo the request's"), or
 * when no answer shows one (a disagreement between nodes: their answers are all well formed, the message and
 * `actual` say who holds what). Never a guess from the order of the exchanges: a check across nodes calls
 * them at once, so the last exchange is any node's.
 */
export function networkCulprits(r: CheckResult, columns: readonly NodeName[]): NodeName[] {
  if (r.scope !== 'network' || (r.status !== 'fail' && r.status !== 'error')) return [];
  const { message } = r.evidence;
  if (columns.some((c) => message.includes(c.url) || message.includes(c.label))) return [];
  const nodes = [...new Set(r.evidence.exchanges.filter(badAnswer).map((e) => e.node))].filter((n) => n !== '' && n !== 'network');
  return nodes.map((url) => columns.find((c) => c.url === url) ?? { url, label: shortUrl(url) });
}
