// Headless Debian Chromium for browser tests (RECIPES.md: never a downloaded browser), and a page
// watcher that records what a test must never see: console errors, uncaught exceptions and
// requests to any origin but the app's own.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/screenshots');

/** Debian's chromium-headless-shell when installed: the same Blink as `chromium` without the
 * browser's own layer (Playwright's choice for headless runs too), it loads a page in half the CPU
 * time, which is most of what the browser suites cost. Else the full `chromium`. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Everything that went wrong so far, one line each. */
  problems: string[];
}

export interface WatchOptions {
  /** Console errors this test tolerates (by message or by the failing resource's URL). */
  allowConsoleError?: (text: string, url: string) => boolean;
  viewport?: { width: number; height: number };
  /** The reader's time zone (IANA name); the machine's own when absent. */
  timezoneId?: string;
}

export async function openPage(browser: Browser, baseURL: string, options: WatchOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL, viewport: options.viewport ?? { width: 1280, height: 900 }, timezoneId: options.timezoneId,
  });
  const page = await context.newPage();
  const origin = new URL(baseURL).origin;
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url ?? '';
    if (options.allowConsoleError?.(message.text(), url)) return;
    problems.push(`console error: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) problems.push(`request off the origin: ${url}`);
  });
  return { context, page, problems };
}

/** Full-page unless told otherwise: narrow pages have a fixed icon bar, best seen as the viewport. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/** axe-core's WCAG 2.1 A and AA rules over the page, or the part `selector` names: each violation, one line. */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  const { default: axe } = await import('axe-core');
  // Run through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axe.source);
  return page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(context ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  }, selector);
}
