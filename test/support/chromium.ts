/**
 * Headless Chromium for the HTML reports' browser tests: Debian's chromium at /usr/bin/chromium, driven by
 * playwright-core. The module is imported by a name held in a variable, so the type check and every other
 * test still work where the package is not installed; `loadChromium` then says why the browser tests skip.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

// The part of playwright-core's API the browser tests use.
export interface Locator {
  count(): Promise<number>;
  first(): Locator;
  locator(selector: string): Locator;
  isVisible(): Promise<boolean>;
  textContent(): Promise<string | null>;
  innerText(): Promise<string>;
  check(): Promise<void>;
  uncheck(): Promise<void>;
  fill(value: string): Promise<void>;
  click(): Promise<void>;
}
export interface Page {
  goto(url: string): Promise<unknown>;
  locator(selector: string): Locator;
  /** The project has no DOM types, so page code is passed as an expression string. */
  evaluate<R>(expression: string): Promise<R>;
  screenshot(options: { path: string; fullPage: boolean }): Promise<unknown>;
  emulateMedia(options: { colorScheme: 'light' | 'dark' }): Promise<void>;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  close(): Promise<void>;
}
export interface Browser {
  newPage(options?: { viewport: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: { launch(options: { executablePath: string; args: string[]; headless?: boolean }): Promise<Browser> };
}

const PLAYWRIGHT = 'playwright-core';

/** A launcher of headless Chromium, or why there is none ("skipped: ..."). */
export async function loadChromium(): Promise<{ launch: () => Promise<Browser> } | string> {
  if (!existsSync(CHROMIUM)) return `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  let pw: Playwright;
  try {
    pw = (await import(PLAYWRIGHT)) as Playwright;
  } catch (error) {
    return `skipped: ${PLAYWRIGHT} cannot be imported (add it as a devDependency): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return { launch: () => pw.chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, headless: true }) };
}
