import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Response } from 'playwright-core';
import { baseUrl, fillLogin, inContext, newContext, root } from './support';

/** The three languages the browser tests run in: the source, English, and right to left. */
export const LANGUAGES = [
  { code: 'chs', header: 'zh-CN' },
  { code: 'en', header: 'en' },
  { code: 'Arabic', header: 'ar' },
] as const;

/**
 * The runs of a file's `describe.each` (one per language, each with its own fixtures) that this
 * test run takes (docs/decisions/034-browser-test-languages.md), from `E2E_LANGUAGES`:
 * - unset or `rotate` (CI): one run per file, the same one every time: the files, in the order of
 *   their names, take the languages in turn, so that together they go through all three;
 *   `E2E_LANGUAGE_SHIFT=1` and `=2` move every file to its next language (the three shifts are
 *   the whole matrix);
 * - `all`: every run of every file;
 * - a list of languages (`ar`, `zh-CN,en`): the runs in those languages.
 */
export function languageRuns<T>(
  runs: readonly T[],
  testFile: string,
  headerOf: (run: T) => string = (run) => (run as { header: string }).header,
  offset = 0,
): T[] {
  const wanted = process.env.E2E_LANGUAGES?.trim() || 'rotate';
  if (wanted === 'all') return [...runs];
  if (wanted !== 'rotate') {
    const headers = wanted.split(',').map((h) => h.trim());
    return runs.filter((run) => headers.includes(headerOf(run)));
  }
  const files = fs
    .readdirSync(path.join(root, 'e2e'))
    .filter((f) => f.endsWith('.e2e.test.ts'))
    .sort();
  const position = files.indexOf(path.basename(fileURLToPath(testFile)));
  if (position < 0) throw new Error(`languageRuns: ${testFile} is not a browser test file in e2e/`);
  const shift = Math.max(0, Math.floor(Number(process.env.E2E_LANGUAGE_SHIFT)) || 0);
  return [runs[(position + shift + offset) % runs.length]!];
}

type Tree = { [k: string]: string | Tree };
const trees = new Map<string, Tree>();

function lookup(header: string, key: string): string | undefined {
  if (!trees.has(header)) trees.set(header, JSON.parse(fs.readFileSync(path.join(root, 'locales', `${header}.json`), 'utf8')) as Tree);
  const value = key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), trees.get(header));
  return typeof value === 'string' ? value : undefined;
}

/**
 * A text of the console in a language, read from the locale files the console uses; with a
 * `count`, the plural form of that language (i18next's `key_<category>`).
 */
export function text(header: string, key: string, params: Record<string, string | number> = {}): string {
  const plural = params.count === undefined ? undefined : lookup(header, `${key}_${new Intl.PluralRules(header).select(Number(params.count))}`);
  const value = plural ?? lookup(header, key);
  if (value === undefined) throw new Error(`no text ${key} in ${header}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** A number as the console writes it in a language (Arabic digits in Arabic). */
export const digits = (header: string, n: number) => new Intl.NumberFormat(header).format(n);

export async function withPage<T>(browser: Browser, options: Parameters<typeof newContext>[1], run: (page: Page) => Promise<T>): Promise<T> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  return inContext(context, () => run(page));
}

/**
 * Calls the console's API from the page, with its session (a test's shortcut to set up data the
 * screen under test does not make itself). Mutations are POSTs from the page's origin, as the console's.
 */
export async function api<T>(page: Page, procedure: string, input: unknown, kind: 'query' | 'mutation' = 'query'): Promise<T> {
  const result = await page.evaluate(
    async ({ procedure, input, kind }) => {
      const url = kind === 'query' ? `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input ?? null))}` : `/trpc/${procedure}`;
      const response = await fetch(
        url,
        kind === 'query'
          ? { headers: { language: 'en' } }
          : { method: 'POST', headers: { 'content-type': 'application/json', language: 'en' }, body: JSON.stringify(input) },
      );
      return { status: response.status, body: (await response.json()) as { result?: { data: unknown }; error?: unknown } };
    },
    { procedure, input, kind },
  );
  if (result.status !== 200 || !result.body.result) throw new Error(`${procedure} answered ${result.status}: ${JSON.stringify(result.body.error)}`);
  return result.body.result.data as T;
}

type RoomListItem = { id: number; name: string; status: string };
/** A room of the demo hotel by its name. */
export async function roomByName(page: Page, name: string): Promise<RoomListItem> {
  const list = await api<{ items: RoomListItem[] }>(page, 'room.list', { search: name, pageSize: 20 });
  const room = list.items.find((r) => r.name === name);
  if (!room) throw new Error(`no room ${name}`);
  return room;
}

/** Every call to the API fails as if the network were down, until `restoreNetwork`. */
export async function cutNetwork(page: Page) {
  await page.route('**/trpc/**', (route) => route.abort('internetdisconnected'));
}
export async function restoreNetwork(page: Page) {
  await page.unroute('**/trpc/**');
}

/** The next answer of the API to a call of `procedure` (batched calls name every procedure in the URL). */
export function answerOf(page: Page, procedure: string, ok = true): Promise<Response> {
  return page.waitForResponse((r) => r.url().includes('/trpc/') && new URL(r.url()).pathname.includes(procedure) && (!ok || r.status() === 200));
}

/** Waits for a toast with this text (sonner keeps older ones on screen for a while). */
export const expectToast = (page: Page, content: string) => page.locator('[data-sonner-toast]', { hasText: content }).first().waitFor();

/** The tile of a room on the board reaches a status (the server's answer has been drawn). */
export async function waitForTileStatus(page: Page, room: string, status: string) {
  await page.waitForFunction(
    ([name, s]) => document.querySelector(`[data-testid="room-tile-${name}"]`)?.getAttribute('data-status') === s,
    [room, status] as const,
    { timeout: 15_000 },
  );
}

/** The boxes of a field's typing area and of something drawn over the field (an icon, a currency). */
export async function fieldAndAdornment(page: Page, inputSelector: string, adornmentSelector: string) {
  return page.evaluate(
    ([inputSel, adornSel]) => {
      const input = document.querySelector<HTMLInputElement>(inputSel);
      const adornment = document.querySelector<HTMLElement>(adornSel);
      if (!input || !adornment) throw new Error(`missing ${input ? adornSel : inputSel}`);
      const box = input.getBoundingClientRect();
      const style = getComputedStyle(input);
      const px = (v: string) => Number.parseFloat(v) || 0;
      // Where typed text can be drawn: the input's content box.
      const content = {
        left: box.left + px(style.borderLeftWidth) + px(style.paddingLeft),
        right: box.right - px(style.borderRightWidth) - px(style.paddingRight),
      };
      // Where the value is drawn (its width measured in the input's font, placed by its alignment and direction).
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const width = Math.min(context.measureText(input.value).width, content.right - content.left);
      const align = style.textAlign;
      const startsLeft = align === 'left' || (align === 'start' && style.direction === 'ltr') || (align === 'end' && style.direction === 'rtl');
      const value = startsLeft ? { left: content.left, right: content.left + width } : { left: content.right - width, right: content.right };
      const a = adornment.getBoundingClientRect();
      return { field: { left: box.left, right: box.right }, content, value, adornment: { left: a.left, right: a.right, width: a.width } };
    },
    [inputSelector, adornmentSelector] as const,
  );
}

/** True when two horizontal ranges share more than a pixel. */
export const overlaps = (a: { left: number; right: number }, b: { left: number; right: number }) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1;

/**
 * The first sign-in of a member added by SMS (issue 39 §7): the sign-in page asks for its own
 * password before anything else; changed, the member is back at the sign-in. Returns the new password.
 */
export async function chooseOwnPassword(page: Page, account: string, sent: string): Promise<string> {
  await page.goto(`${baseUrl()}/login`);
  await fillLogin(page, { account, password: sent });
  await page.getByTestId('first-password-form').waitFor();
  const own = `Own-${account.slice(-6)}`;
  await page.locator('#newPassword').fill(own);
  await page.locator('#confirmPassword').fill(own);
  await page.getByTestId('first-password-submit').click();
  await page.getByTestId('login-form').waitFor();
  return own;
}
