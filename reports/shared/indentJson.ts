/**
 * Compact JSON text (as stringifyJson writes it, which is the only way bigints come out exact) laid out
 * the way JSON.stringify(value, null, 2) lays it out. Only whitespace outside strings is added, so
 * every value, bigints included, is unchanged. The input must be compact JSON: no whitespace between tokens.
 */
export function indentJson(compact: string, indent = 2): string {
  const parts: string[] = [];
  let depth = 0;
  let start = 0; // start of the pending run of plain characters
  const newline = (): string => `\n${' '.repeat(depth * indent)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i];
    if (c === '"') {
      // Skip to the closing quote; a backslash always escapes exactly the next character.
      i++;
      while (i < compact.length && compact[i] !== '"') i += compact[i] === '\\' ? 2 : 1;
      continue;
    }
    if (c !== '{' && c !== '[' && c !== '}' && c !== ']' && c !== ',' && c !== ':') continue;
    parts.push(compact.slice(start, i));
    start = i + 1;
    if (c === '{' || c === '[') {
      const next = compact[i + 1];
      if (next === '}' || next === ']') {
        parts.push(c, next); // empty object or array stays on one line, as in JSON.stringify
        i++;
        start = i + 1;
      } else {
        depth++;
        parts.push(c, newline());
      }
    } else if (c === '}' || c === ']') {
      depth--;
      parts.push(newline(), c);
    } else if (c === ',') {
      parts.push(',', newline());
    } else {
      parts.push(': ');
    }
  }
  parts.push(compact.slice(start));
  return parts.join('');
}
