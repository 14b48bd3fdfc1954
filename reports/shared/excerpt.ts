/** The reports cut long text as the rest of the tool does (core/excerpt.ts). */
export { excerpt } from '../../core/excerpt.js';
