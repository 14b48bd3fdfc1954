/** Runs the built chainrpc binary (dist/, made by npm test's build step) as a user would. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../core/paths.js';

export const CHAINRPC_BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

export interface ChainrpcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `chainrpc ...args` to its end; resolves with the exit code and both streams. */
export function runChainrpc(...args: string[]): Promise<ChainrpcRun> {
  return runChainrpcIn(process.cwd(), args);
}

/** As runChainrpc, in the folder `cwd`: for a command as printed, whose reports go under ./.chainrpc. */
export function runChainrpcIn(cwd: string, args: readonly string[]): Promise<ChainrpcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHAINRPC_BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
