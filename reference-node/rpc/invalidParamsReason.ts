import type { Problem } from '../../core/schema/validators.js';
import type { MethodSchema } from '../../core/schema/schemaCatalog.js';

const POINTER = /^\/(\d+)(\/.*)?$/;
// validators() appends "; got <value>" to messages; data.errors keeps that, the sentence stays short.
const GOT = /; got .*$/s;

function countOf(schema: MethodSchema, key: 'minItems' | 'maxItems'): number | undefined {
  const value = schema.definitions.params[key];
  return typeof value === 'number' ? value : undefined;
}

function expectedCount(schema: MethodSchema): string {
  const names = schema['x-params'].map((p) => p.name);
  const min = countOf(schema, 'minItems') ?? names.length;
  const max = countOf(schema, 'maxItems') ?? names.length;
  if (max === 0) return 'takes no params';
  const count = min === max ? `${max}` : `${min} to ${max}`;
  return `takes ${count} param${max === 1 ? '' : 's'} (${names.join(', ')})`;
}

/**
 * The sentence for InvalidParams' data.reason, e.g. "param 1 (address) must be 64 hexadecimal
 * characters without a 0x prefix" or "chain_blockNumber takes no params; got 1". Param names come
 * from the method schema's x-params; positions are 1-based, as people count.
 */
export function invalidParamsReason(schema: MethodSchema, paramCount: number, problems: readonly Problem[]): string {
  const names = schema['x-params'];
  const sentences = problems.map((problem) => {
    const message = problem.message.replace(GOT, '');
    const match = POINTER.exec(problem.pointer);
    if (match) {
      const index = Number(match[1]);
      const name = names[index]?.name;
      const where = match[2] === undefined ? '' : ` at ${match[2]}`;
      return `param ${index + 1}${name === undefined ? '' : ` (${name})`}${where} ${message}`;
    }
    if (problem.pointer === '' && (problem.rule === 'minItems' || problem.rule === 'maxItems')) {
      return `${schema.title} ${expectedCount(schema)}; got ${paramCount}`;
    }
    return `params${problem.pointer === '' ? '' : ` at ${problem.pointer}`} ${message}`;
  });
  return sentences.length === 0 ? 'the params do not match the method schema' : sentences.join('; ');
}
