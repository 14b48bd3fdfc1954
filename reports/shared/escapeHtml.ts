import { showControls } from './showControls.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for HTML content or a quoted attribute value. Everything a node sent passes through here: it is
 * hostile input (a response body may hold "</script><script>..."), and escaping all five characters makes
 * the same function safe in both places.
 */
export function escapeHtml(text: string): string {
  return showControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
