import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, holdNextRequest, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, expectToast, languageRuns, text } from './support-board';
import { roomWithoutLock } from './support-locks';
import { seam } from './support-seam';
import { closeSql, sql } from './support-stays';

/**
 * A hotel card system through Seam (issue 38, Seam `acs`: ASSA ABLOY Visionline; docs/seam.md "Card
 * systems"), in Chinese, English and Arabic: a room whose door is the system's offers "Encode a
 * card" in place of the desk reader's card and the number sent to the lock; the dialog chooses the
 * desk's encoder, shows itself busy while the system encodes, says in the desk's language that no
 * card was on the encoder (and offers to encode again), and a card placed is encoded and listed
 * with the number the system gave it; the check-in's two room cards come up in the same dialog,
 * encoded one after the other; a renewed stay's cards are marked to encode again, and "write now"
 * encodes one in place of the old. The system, its door and its encoder are made through OUR
 * control of Seam's fake (test/seam-fake-acs.mjs: the fake has no credentials nor encoders); the
 * workspace is connected, got and paired through the console's own API, as the lock accounts page
 * does (lock-accounts-seam.e2e.test.ts shows that page).
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
  { code: 'chs', header: 'zh-CN', room: 'VL-zh', guest: '林晓雯' },
  { code: 'en', header: 'en', room: 'VL-en', guest: 'Maya Collins' },
  { code: 'Arabic', header: 'ar', room: 'VL-ar', guest: 'سلمى منصور' },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('a hotel card system through Seam in $header', ({ code, header, room, guest }) => {
  let context: BrowserContext;
  let page: Page;
  let roomId: number;
  let encoderId: string;
  let systemId: string;

  beforeAll(async () => {
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
    const workspace = await seam<{ workspace_id: string; api_key: string }>('/add_workspace', { name: `Visionline ${header}` });
    ({ acs_system_id: systemId } = await seam<{ acs_system_id: string }>('/acs/add_system', { workspace_id: workspace.workspace_id }));
    const door = await seam<{ acs_entrance_id: string }>('/acs/add_entrance', { acs_system_id: systemId, name: `Door ${room}` });
    ({ acs_encoder_id: encoderId } = await seam<{ acs_encoder_id: string }>('/acs/add_encoder', {
      acs_system_id: systemId,
      display_name: `Front desk ${header}`,
    }));
    roomId = await roomWithoutLock(room);
    const account = await api<{ id: number }>(page, 'lockAccount.connectSeam', { apiKey: workspace.api_key, label: `Visionline ${header}` }, 'mutation');
    await api(page, 'lockAccount.importLocks', { accountId: account.id }, 'mutation');
    const [lock] = await sql<{ id: number }>(`SELECT id FROM "Lock" WHERE "providerLockId" = $1`, [door.acs_entrance_id]);
    await api(page, 'lock.pair', { pairs: [{ roomId, lockId: lock!.id }] }, 'mutation');
    const now = Date.now();
    await api(
      page,
      'stay.checkIn',
      {
        roomId,
        checkInAt: new Date(now - 60_000).toISOString(),
        expectedCheckOutAt: new Date(now + 2 * 86_400_000).toISOString(),
        guests: [{ name: guest }],
        idempotencyKey: `card-system-${header}-${now}`,
      },
      'mutation',
    );
  });
  afterAll(async () => {
    await context?.close();
  });

  it('offers "Encode a card" on the door of a card system, says a missing card in the dialog, and lists the card the system encoded', async () => {
    await page.goto(`${baseUrl()}/room/${roomId}?tab=credentials`);
    const open = page.getByTestId('room-cards-encode');
    await open.waitFor();
    expect(await open.textContent()).toBe(text(header, 'cards.encode.button'));
    // The desk reader's card and a number sent to the lock are not for this door; nor is anything said against cards.
    expect(await page.getByTestId('room-cards-write').count()).toBe(0);
    expect(await page.getByTestId('room-cards-send').count()).toBe(0);
    expect(await page.getByTestId('lock-cannot-take-cards').count()).toBe(0);

    // Opened by keyboard: the desk's encoder chosen, Encode focused.
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('encode-card-dialog');
    await dialog.waitFor();
    await page.getByTestId('encode-card-encoder').waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe(text(header, 'cards.encode.title', { room }));
    expect(await dialog.getByText(text(header, 'cards.encode.text', { guest })).count()).toBe(1);
    expect(await page.getByTestId('encode-card-encoder').inputValue()).toBe(encoderId);
    expect(await page.getByTestId('encode-card-encoder').locator('option:checked').textContent()).toBe(`Front desk ${header}`);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'encode-card-run');
    if (header === 'ar') expect(await dialog.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');

    // No card on the encoder: busy while the system tries, then said in the dialog, and Encode offered again.
    await seam('/acs/encoder', { acs_encoder_id: encoderId, then: 'no_credential_on_encoder' });
    const held = holdNextRequest(page, '**/trpc/card.encode**');
    await page.keyboard.press('Enter');
    await page.getByTestId('encode-card-busy').waitFor();
    expect(await page.getByTestId('encode-card-busy').textContent()).toBe(text(header, 'cards.encode.busy'));
    expect(await page.getByTestId('encode-card-run').isDisabled()).toBe(true);
    expect(await page.getByTestId('encode-card-encoder').isDisabled()).toBe(true);
    await screenshot(page, `card-system-encoding-${header}`);
    held.release();
    await held.done;
    const error = page.getByTestId('encode-card-error-text');
    await error.waitFor();
    expect(await error.textContent()).toBe(text(header, 'cards.encode.failed', { reason: text(header, 'credentials.errors.no_card_on_encoder') }));
    expect(await page.getByTestId('encode-card-run').textContent()).toBe(text(header, 'cards.encode.again'));
    expect(await sql(`SELECT id FROM "CardIssue" WHERE "roomId" = $1`, [roomId])).toEqual([]);
    await screenshot(page, `card-system-no-card-${header}`);

    // On a phone the dialog fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, `card-system-no-card-phone-${header}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A card placed: encoded, the dialog closes, and the card is listed with the system's number.
    await seam('/acs/encoder', { acs_encoder_id: encoderId, then: 'success' });
    await page.getByTestId('encode-card-run').click();
    await dialog.waitFor({ state: 'detached' });
    const credentials = await seam<{ acs_system_id: string; card_number: string; is_issued: boolean }[]>('/acs/credentials', {});
    const card = credentials.find((c) => c.acs_system_id === systemId && c.is_issued)!;
    await expectToast(page, text(header, 'cards.encode.done', { number: card.card_number, room }));
    await page.getByTestId(`card-row-${card.card_number}`).waitFor();
    expect(await sql(`SELECT medium, state FROM "CardIssue" WHERE "roomId" = $1`, [roomId])).toEqual([{ medium: 'encoded', state: 'issued' }]);
    await screenshot(page, `card-system-card-listed-${header}`);

    // Its Lock tab says what the door is: nothing to read of it, nothing to open from the console.
    await page.getByTestId('tab-lock').click();
    const door = page.getByTestId('lock-card-system');
    await door.waitFor();
    expect(await door.textContent()).toBe(text(header, 'locks.cardSystemDoor'));
    expect(await page.getByTestId('lock-refresh').count()).toBe(0);
    expect(await page.getByTestId('lock-unlock').count()).toBe(0);
    await screenshot(page, `card-system-lock-tab-${header}`);
  });

  it('checks the next guest in with two room cards, encoded one after the other; the stay renewed, a card is encoded again in place of the old', async () => {
    const before = (await api<{ currentStay: { id: number } | null }>(page, 'room.get', { id: roomId })).currentStay!.id;
    await api(page, 'stay.checkOut', { stayId: before }, 'mutation');
    // Made up (cleaned) after the guest left: the check-in asks nothing about the room.
    await api(page, 'room.setStatusMany', { roomIds: [roomId], target: 'clean' }, 'mutation');
    await page.goto(`${baseUrl()}/room/${roomId}`);
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('action-check-in').click();
    const checkIn = page.getByTestId('check-in-dialog');
    await checkIn.waitFor();
    await page.locator('#guest-0-name').fill(`${guest} ${header}`);
    await page.getByTestId('roomCards').fill('2');
    await page.getByTestId('check-in-submit').click();
    const dialog = page.getByTestId('encode-card-dialog');
    await dialog.waitFor();
    await checkIn.waitFor({ state: 'detached' });
    const progress = page.getByTestId('encode-card-progress');
    expect(await progress.textContent()).toBe(text(header, 'cards.encode.cards', { count: 2 }));
    await page.getByTestId('encode-card-encoder').waitFor();
    await page.getByTestId('encode-card-run').click();
    await page.locator('[data-testid="encode-card-progress"][data-done="1"]').waitFor();
    expect(await progress.textContent()).toBe(text(header, 'cards.encode.next', { done: 1, count: 2 }));
    await screenshot(page, `card-system-next-card-${header}`);
    await page.getByTestId('encode-card-run').click();
    await dialog.waitFor({ state: 'detached' });
    const stayId = (await api<{ currentStay: { id: number } | null }>(page, 'room.get', { id: roomId })).currentStay!.id;
    expect(await sql(`SELECT medium, state FROM "CardIssue" WHERE "stayId" = $1 ORDER BY id`, [stayId])).toEqual([
      { medium: 'encoded', state: 'issued' },
      { medium: 'encoded', state: 'issued' },
    ]);

    // The stay is renewed: its cards hold the old check-out, so the desk is told to encode them again;
    // "write now" encodes one on the encoder, and the one it replaces ends.
    const checkOut = new Date(Date.now() + 4 * 86_400_000).toISOString();
    await api(page, 'stay.renew', { stayId, expectedCheckOutAt: checkOut, priceMode: 'fixed', fixedPrice: 20_000 }, 'mutation');
    await page.goto(`${baseUrl()}/room/${roomId}?tab=credentials`);
    const rewrite = page.getByTestId('room-cards').locator('button[data-testid^="card-"][data-testid$="-rewrite"]:visible');
    await expect.poll(() => rewrite.count()).toBe(2);
    await rewrite.first().click();
    await dialog.waitFor();
    await page.getByTestId('encode-card-encoder').waitFor();
    await page.getByTestId('encode-card-run').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => rewrite.count()).toBe(1);
    expect(
      await sql(`SELECT state, "endReason", count(*)::int AS n FROM "CardIssue" WHERE "stayId" = $1 GROUP BY 1, 2 ORDER BY state::text`, [stayId]),
    ).toEqual([
      { state: 'ended', endReason: 'rewritten', n: 1 },
      { state: 'issued', endReason: null, n: 2 },
    ]);
    await screenshot(page, `card-system-encoded-again-${header}`);
  });
});
