import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, expectToast, text, languageRuns } from './support-board';
import { roomWithoutLock, sim } from './support-locks';
import { closeSql, sql } from './support-stays';

/**
 * A hotel's own lock account (issue 16), in Chinese, English and Arabic: the owner connects a
 * TTLock account of the simulator on the lock accounts page (a wrong password is said on its
 * field), its locks are got at once, the page proposes a room for each by its name and "pair all
 * suggestions" pairs them; then a guest of one of those rooms holds a generated code, and a
 * renewal at the desk tells the clerk the guest's code changed (TTLock never changes a generated
 * code: a new one replaces it), which the stay card says too; on the lock the old code no longer
 * opens and the new one does. Rooms 7101-7302 and their accounts are this file's.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', rooms: ['7101', '7102'] },
  { code: 'en', header: 'en', rooms: ['7201', '7202'] },
  { code: 'Arabic', header: 'ar', rooms: ['7301', '7302'] },
] as const;

const PASSWORD = 'e2e-lock-pass';

interface PasswordRow {
  id: number;
  code: string | null;
  deliveryState: string;
  replacesId: number | null;
}

async function stayPasswords(page: Page, stayId: number): Promise<PasswordRow[]> {
  return (await api<{ items: PasswordRow[] }>(page, 'password.list', { stayId, scope: 'all' })).items;
}

/** Asks the console until `check` holds for the stay's passwords (the delivery engine works in the background). */
async function untilPasswords(page: Page, stayId: number, check: (rows: PasswordRow[]) => boolean): Promise<PasswordRow[]> {
  for (let i = 0; i < 150; i++) {
    const rows = await stayPasswords(page, stayId);
    if (check(rows)) return rows;
    await page.waitForTimeout(200);
  }
  throw new Error(`the stay's passwords never got there: ${JSON.stringify(await stayPasswords(page, stayId))}`);
}

describe.each(languageRuns(RUNS, import.meta.url))('lock accounts in $header', ({ code, header, rooms }) => {
  let context: BrowserContext;
  let page: Page;
  const username = `e2e-${header}-${Date.now()}`;
  const lockIds: string[] = [];
  const roomIds: number[] = [];

  beforeAll(async () => {
    // The hotel's TTLock account: a gateway and a lock named after each of this run's rooms.
    await sim('POST', '/accounts', { username, password: PASSWORD });
    const { gateway } = await sim<{ gateway: { gatewayId: number } }>('POST', '/gateways', { account: username, name: `Gateway ${header}` });
    for (const room of rooms) {
      roomIds.push(await roomWithoutLock(room));
      const { lock } = await sim<{ lock: { lockId: number } }>('POST', '/locks', { account: username, name: `Room ${room}`, gatewayIds: [gateway.gatewayId] });
      lockIds.push(String(lock.lockId));
    }
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('connects the account (a wrong password said on its field), gets its locks and pairs them by their names', async () => {
    await page.goto(`${baseUrl()}/lockAccounts`);
    await page.getByTestId('lock-accounts-list').waitFor();
    await page.getByTestId('lock-accounts-connect').click();
    const dialog = page.getByTestId('lock-account-connect-dialog');
    await dialog.waitFor();
    await page.getByTestId('lock-account-username').fill(username);
    await page.getByTestId('lock-account-password').fill('not-the-password');
    await page.getByTestId('lock-account-connect-submit').click();
    // The server's refusal, on the password field, in the page's language.
    await page.locator('#lock-account-password-error', { hasText: text(header, 'lockAccounts.errors.wrongPassword') }).waitFor();
    await screenshot(page, `lock-account-wrong-password-${header}`);

    // Typed again (the refused password was cleared): connected, and its locks are got at once.
    await page.getByTestId('lock-account-password').fill(PASSWORD);
    await page.getByTestId('lock-account-connect-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const summary = page.getByTestId('lock-account-import-summary');
    await summary.waitFor();
    expect(await summary.getByTestId('lock-account-import-added').getAttribute('data-number')).toBe('2');
    await page.getByTestId('lock-accounts-list').getByText(username, { exact: true }).waitFor();
    await screenshot(page, `lock-account-connected-${header}`);

    // The hotel's locks, unpaired, narrowed to this run's: each proposes its room.
    await page.getByTestId('locks-filter-unpaired').click();
    await page.getByTestId('locks-search').fill(`Room ${rooms[0].slice(0, 2)}`);
    const rows = page.locator('[data-testid^="lock-row-"]');
    await page.waitForFunction(
      (names) =>
        names.every((n) =>
          Array.from(document.querySelectorAll('[data-testid^="lock-row-"]')).some((r) =>
            r.querySelector('[data-testid="lock-suggestion"]')?.textContent?.includes(n),
          ),
        ),
      [...rooms],
    );
    // The search is applied as it is typed (the list of every unpaired lock may still be shown a moment).
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, `lock-suggestions-${header}`);

    // Pair all suggestions, asked first with how many.
    await page.getByTestId('locks-pair-all').click();
    const confirm = page.getByTestId('locks-pair-all-dialog');
    await confirm.waitFor();
    await page.getByTestId('locks-pair-all-confirm').click();
    await confirm.waitFor({ state: 'detached' });
    // Paired: the unpaired list of this run's locks is empty, and each room's door is its lock.
    await page.getByTestId('locks-empty').waitFor();
    const paired = await sql<{ name: string; providerLockId: string }>(
      `SELECT r.name, l."providerLockId" FROM "Room" r JOIN "Lock" l ON l."hotelId" = r."hotelId" AND l.id = r."lockId" WHERE r.id = ANY($1) ORDER BY r.name`,
      [roomIds],
    );
    expect(paired).toEqual(rooms.map((name, i) => ({ name, providerLockId: lockIds[i] })));
    await page.getByTestId('locks-filter-paired').click();
    await page.getByTestId('lock-room-link').first().waitFor();
    await screenshot(page, `lock-paired-${header}`);
  });

  it("a renewal replaces the guest's generated code, and the clerk is told to give the new one", async () => {
    const now = Date.now();
    const stay = await api<{ id: number }>(
      page,
      'stay.checkIn',
      {
        roomId: roomIds[0],
        checkInAt: new Date(now - 60_000).toISOString(),
        expectedCheckOutAt: new Date(now + 86_400_000).toISOString(),
        guests: [{ name: `Guest ${rooms[0]}` }],
        idempotencyKey: `e2e-lock-accounts-${header}-${now}`,
        acknowledge: ['room_dirty'],
      },
      'mutation',
    );
    await api(page, 'password.create', { roomId: roomIds[0], kind: 'air', stayId: stay.id }, 'mutation');
    const [first] = await untilPasswords(page, stay.id, (r) => r.length === 1 && r[0]!.deliveryState === 'on_lock');
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockIds[0]}/use`, { passcode: first!.code })).toMatchObject({ opened: true });

    // At the desk: renew by a day; the message says the door code changes. (The room is opened by
    // its address: far down the board's order, it is not on the board's first page.)
    await page.goto(`${baseUrl()}/room/${roomIds[0]}`);
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('action-renew').click();
    await page.getByTestId('renew-dialog').waitFor();
    await page.getByTestId('renew-plusDay').click();
    await page.getByTestId('renew-quote').getByText(/\d/).first().waitFor();
    await page.getByTestId('renew-submit').click();
    await page.getByTestId('renew-dialog').waitFor({ state: 'detached' });
    await expectToast(page, text(header, 'frontDesk.stay.renewCodeChanged'));
    await screenshot(page, `renew-code-changed-${header}`);

    // The new code replaces the first: the stay card says so, the lock opens for it and not for the old one.
    const rows = await untilPasswords(
      page,
      stay.id,
      (r) => r.some((p) => p.replacesId === first!.id && p.deliveryState === 'on_lock') && r.some((p) => p.id === first!.id && p.deliveryState === 'removed'),
    );
    const replacement = rows.find((p) => p.replacesId === first!.id)!;
    const note = page.getByTestId(`stay-password-${replacement.id}-replaces`);
    await note.waitFor();
    expect(await note.textContent()).toBe(text(header, 'credentials.replacesNote'));
    await screenshot(page, `stay-card-new-code-${header}`);
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockIds[0]}/use`, { passcode: replacement.code })).toMatchObject({ opened: true });
    if (replacement.code !== first!.code)
      expect(await sim<{ opened: boolean }>('POST', `/locks/${lockIds[0]}/use`, { passcode: first!.code })).toMatchObject({ opened: false });
    // Checked out: the room is left as it was found for the next run of the suite.
    await api(page, 'stay.checkOut', { stayId: stay.id }, 'mutation');
  });
});
