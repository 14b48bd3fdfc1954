import { describe, expect, it } from 'vitest';
import { workerExecArgv } from './startWorker.js';

describe('workerExecArgv', () => {
  it('keeps what changes how a worker loads and reports, in both forms, and drops what a worker refuses', () => {
    const parent = ['--max-old-space-size=4096', '--import', 'tsx', '--trace-gc', '--input-type', 'module', '--conditions=dev', '-r', './hook.cjs', '--title=x', '--experimental-vm-modules', '--no-warnings', '--expose-gc', '--enable-source-maps', '--stack-size', '2000'];
    expect(workerExecArgv(parent)).toEqual(['--import', 'tsx', '--conditions=dev', '-r', './hook.cjs', '--experimental-vm-modules', '--no-warnings', '--enable-source-maps']);
  });

  it('gives nothing for a plain node', () => {
    expect(workerExecArgv([])).toEqual([]);
  });
});
