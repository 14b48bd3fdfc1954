/** Milliseconds of a scenario duration ("500ms", "30s", "2m"; the pattern of schemas/load/scenario.schema.json). */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration: write a number and ms, s or m ("500ms", "30s", "2m")`);
  const value = Number(match[1]);
  const unit = match[2] === 'ms' ? 1 : match[2] === 's' ? 1000 : 60_000;
  return Math.round(value * unit);
}
