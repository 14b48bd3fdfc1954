import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pbkdf2 } from 'node:crypto';
import { cpuSeconds, processSample, threadCpuSeconds } from './procStat.js';

const MB = 1024 * 1024;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NO_SUCH_PID = 2 ** 22 + 7; // above pid_max's ceiling (2^22): never a process

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.platform === 'linux')('cpuSeconds (/proc/<pid>/stat)', () => {
  it('grows with the CPU this process spends, and is undefined for a process that does not exist', () => {
    const before = cpuSeconds('self') ?? Number.NaN;
    expect(before).toBeGreaterThan(0);
    // Spin until 50 ms of CPU show (5 ticks), however busy the machine; 5 s of wall time at most.
    const giveUp = performance.now() + 5_000;
    let grown = 0;
    while (grown < 0.05 && performance.now() < giveUp) {
      const until = performance.now() + 10;
      while (performance.now() < until);
      grown = (cpuSeconds(process.pid) ?? before) - before;
    }
    expect(grown).toBeGreaterThanOrEqual(0.05);
    expect(cpuSeconds(NO_SUCH_PID)).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('threadCpuSeconds (/proc/<pid>/task/<pid>/stat)', () => {
  it('puts the event loop\'s spinning on the main thread and the thread pool\'s hashing on the others', async () => {
    const start = threadCpuSeconds(process.pid);
    if (start === undefined) throw new Error('no figures for this process');
    // The event loop spins 100 ms of CPU (10 ticks) at least, however busy the machine; 5 s of wall time at most.
    const giveUp = performance.now() + 5_000;
    while ((threadCpuSeconds(process.pid)?.main ?? 0) - start.main < 0.1 && performance.now() < giveUp) {
      const until = performance.now() + 10;
      while (performance.now() < until);
    }
    const spun = threadCpuSeconds(process.pid) ?? start;
    expect(spun.main - start.main).toBeGreaterThanOrEqual(0.1);
    // Then the pool hashes while the event loop waits: 4 key derivations at once, each far more than a tick.
    await Promise.all(Array.from({ length: 4 }, () => new Promise((resolve, reject) => pbkdf2('p', 's', 300_000, 32, 'sha256', (e, k) => (e ? reject(e) : resolve(k))))));
    const hashed = threadCpuSeconds(process.pid) ?? spun;
    expect(hashed.others - spun.others).toBeGreaterThanOrEqual(0.1);
    expect(hashed.main - spun.main).toBeLessThan(hashed.others - spun.others);
    expect(threadCpuSeconds(NO_SUCH_PID)).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('processSample (/proc/<pid>/stat, status and fd)', () => {
  it('gives plausible figures for this Node process, by self and by pid, and undefined for no process', () => {
    for (const pid of ['self', process.pid] as const) {
      const sample = processSample(pid);
      expect(sample?.cpuSeconds).toBeGreaterThan(0);
      expect(sample?.rssBytes).toBeGreaterThan(10 * MB);
      expect(sample?.threads).toBeGreaterThanOrEqual(1);
      // stdin, stdout and stderr at least; the listing's own descriptor is not counted.
      expect(sample?.openFds).toBeGreaterThanOrEqual(3);
    }
    expect(processSample(NO_SUCH_PID)).toBeUndefined();
  });

  it('sees resident memory grow by at least 40 MB when a 64 MB buffer is filled and held', () => {
    // Filling touches every page (an untouched allocation is not resident). The collector may hand memory back
    // between two samples: a few tries, each buffer held until the end, so that none is freed in a later try.
    const held: Buffer[] = [];
    let grown = 0;
    for (let attempt = 0; attempt < 3 && grown < 40 * MB; attempt++) {
      const before = processSample('self')?.rssBytes ?? Number.NaN;
      const buffer = Buffer.alloc(64 * MB);
      buffer.fill(attempt + 1);
      held.push(buffer);
      grown = (processSample('self')?.rssBytes ?? Number.NaN) - before;
    }
    expect(grown).toBeGreaterThanOrEqual(40 * MB);
    expect(held.every((b, i) => b[b.length - 1] === i + 1)).toBe(true);
  });

  it('counts a descriptor opened, and no longer once it is closed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-procstat-'));
    try {
      const file = join(dir, 'held');
      writeFileSync(file, '');
      const fds = (): number => processSample('self')?.openFds ?? Number.NaN;
      // Another part of this process (a worker, a pending fs call) may open or close one of its own in between:
      // a few tries, until one sees this open and this close alone.
      let change = { opened: Number.NaN, closed: Number.NaN };
      for (let attempt = 0; attempt < 20 && !(change.opened === 1 && change.closed === 0); attempt++) {
        const before = fds();
        const fd = openSync(file, 'r');
        const opened = fds() - before;
        closeSync(fd);
        change = { opened, closed: fds() - before };
      }
      expect(change).toEqual({ opened: 1, closed: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('samples a child by its pid, and is undefined once the child is killed and reaped', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(()=>{},5000)'], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const pid = child.pid ?? Number.NaN;
    try {
      expect(pid).toBeGreaterThan(0);
      // The process exists once spawn returns; its resident memory passes 10 MB once Node has started in it.
      const giveUp = performance.now() + 20_000;
      let sample = processSample(pid);
      while ((sample?.rssBytes ?? 0) < 10 * MB && performance.now() < giveUp) {
        await sleep(20);
        sample = processSample(pid);
      }
      expect(sample?.rssBytes).toBeGreaterThan(10 * MB);
      expect(sample?.threads).toBeGreaterThanOrEqual(1);
      expect(sample?.openFds).toBeGreaterThanOrEqual(3);
      expect(sample?.cpuSeconds).toBeGreaterThanOrEqual(0);
    } finally {
      child.kill('SIGKILL');
    }
    // Node emits 'exit' after libuv's waitpid has reaped the child: nothing of it is left in /proc.
    await exited;
    expect(processSample(pid)).toBeUndefined();
  });

  it('gives the other figures, and no descriptor count, for a process it may not look into', async (ctx) => {
    if (process.getuid?.() !== 0) {
      // Unprivileged: init (pid 1) is another user's, most often.
      if (!fdListRefused(1)) ctx.skip('every process here is this user\'s');
      const sample = processSample(1);
      expect(sample?.openFds).toBeUndefined();
      expect(sample?.threads).toBeGreaterThanOrEqual(1);
      return;
    }
    // As root every folder opens: sample this (root's) process from a child that runs as nobody.
    const module = pathToFileURL(join(ROOT, 'core/process/procStat.ts')).href;
    const code = `import { processSample } from ${JSON.stringify(module)};
      console.log(JSON.stringify(processSample(Number(process.argv[1])), (_, v) => (v === undefined ? 'undefined' : v)));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, String(process.pid)], {
      cwd: ROOT,
      uid: 65534,
      gid: 65534,
    });
    const sample = JSON.parse(stdout) as Record<string, unknown>;
    expect(sample['openFds']).toBe('undefined');
    expect(sample['rssBytes']).toBeGreaterThan(10 * MB);
    expect(sample['threads']).toBeGreaterThanOrEqual(1);
    expect(sample['cpuSeconds']).toBeGreaterThan(0);
  });
});

/** Whether listing the descriptors of `pid` is refused to this process for want of permission. */
function fdListRefused(pid: number): boolean {
  try {
    readdirSync(`/proc/${pid}/fd`);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM';
  }
}
