import { showControls } from './showControls.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Inside an attribute a parser turns raw tab and newline into spaces (XML 1.0 §3.3.3): keep them as references.
  '\t': '&#9;',
  '\n': '&#10;',
};

/**
 * Text for XML 1.0 content or a quoted attribute value: markup characters as entities, characters
 * XML forbids replaced (see showControls), and in attributes tab and newline as character references.
 */
export function escapeXml(text: string, inAttribute = false): string {
  const pattern = inAttribute ? /[&<>"'\t\n]/g : /[&<>]/g;
  return showControls(text).replace(pattern, (c) => ENTITIES[c] ?? c);
}
