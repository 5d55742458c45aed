import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, signIn, screenshotWhileSpinning } from './support';
import { api, expectToast, text, languageRuns } from './support-board';
import { cardNumberOf, placeBlankCard, waitForCardOnLocks, type CardIssue } from './support-cards';
import { pairedRoom, sim } from './support-locks';
import { readerSim, useReaderType } from './support-readers';
import { closeSql, shiftWallClock, typeDateTime } from './support-stays';

/**
 * A card's number sent to a room's lock over the air, from the room's Credentials tab (card.send;
 * nothing is written on the card), in Chinese, English and Arabic, one reader type each, against
 * the console's lock and reader simulators: the number read from the card on the desk reader and
 * sent for the current stay (the form's own messages first); the card listed with its lock's
 * delivery state until it is on the lock, and the simulated lock opens for that number; the same
 * number sent again is refused with the server's reason (in use: room and guest) inside the
 * dialog; revoked after a confirmation, the lock refuses it; a typed number for a period (an end
 * before the start is refused first) opens the lock for the period chosen. Each language has a
 * room of its own, paired with a new simulated lock behind a gateway of its own (a gateway carries
 * one command at a time; the demo's thirty locks share the first one).
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
  { code: 'chs', header: 'zh-CN', type: 1, room: 'SEND-zh', guest: '周雨桐', note: '客房部备用卡' },
  { code: 'en', header: 'en', type: 2, room: 'SEND-en', guest: 'Owen Hartley', note: 'Housekeeping spare' },
  { code: 'Arabic', header: 'ar', type: 3, room: 'SEND-ar', guest: 'ليلى حداد', note: 'بطاقة التدبير الاحتياطية' },
] as const;

type UseAnswer = { opened: boolean; outcome: string };
type SentCard = CardIssue & { medium: string; stayId: number | null; holderName: string; note: string; validFrom: string };

/** The card number held to the room's simulated lock: what the lock decided. */
const presentNumber = (lockId: string, cardNumber: string) => sim<UseAnswer>('POST', `/locks/${lockId}/use`, { cardNumber });

const screenshot = screenshotWhileSpinning;

describe.each(languageRuns(RUNS, import.meta.url))(
  'a card number sent to the lock in $header (reader type $type)',
  ({ code, header, type, room, guest, note }) => {
    const shot = (name: string) => `card-send-${name}-${header}`;
    let context: BrowserContext;
    let page: Page;
    let roomId: number;
    let lockId: string;
    let stayId: number;
    let expectedCheckOutAt: string;
    let stayCard: string;

    beforeAll(async () => {
      await readerSim().reset();
      context = await newContext(browser, { language: code });
      await useReaderType(context, type);
      page = await context.newPage();
      await signIn(page, DEMO_OWNER);
      const { gateway } = await sim<{ gateway: { gatewayId: number } }>('POST', '/gateways', { name: `Card send ${header}` });
      ({ roomId, lockId } = await pairedRoom(room, { gatewayId: gateway.gatewayId, sortOrder: 960 }));
      const now = Date.now();
      const stay = await api<{ id: number; expectedCheckOutAt: string }>(
        page,
        'stay.checkIn',
        {
          roomId,
          checkInAt: new Date(now - 60_000).toISOString(),
          expectedCheckOutAt: new Date(now + 2 * 86_400_000).toISOString(),
          guests: [{ name: guest }],
          idempotencyKey: `card-send-${header}-${now}`,
        },
        'mutation',
      );
      stayId = stay.id;
      expectedCheckOutAt = stay.expectedCheckOutAt;
    });
    afterAll(async () => {
      await context?.close();
    });

    const dialog = () => page.getByTestId('send-card-dialog');
    const submit = () => page.getByTestId('send-card-submit');
    const row = (number: string) => page.getByTestId(`card-row-${number}`);
    const issueOf = async (number: string, scope: 'active' | 'history' = 'active') =>
      (await api<{ items: SentCard[] }>(page, 'card.list', { roomId, scope, pageSize: 50 })).items.find((c) => c.cardNumber === number)!;

    async function openDialog() {
      await page.getByTestId('room-cards-send').click();
      await dialog().waitFor();
    }

    /** Waits until the card's row shows its lock's state, in words. */
    async function lockStateOf(number: string, state: string) {
      const grant = row(number).getByTestId(`card-grant-${room}`);
      await page.locator(`[data-testid="card-row-${number}"] [data-testid="card-grant-${room}"][data-state="${state}"]`).waitFor({ timeout: 30_000 });
      expect(await grant.getByTestId('delivery-state').innerText()).toBe(text(header, `credentials.states.${state}`));
    }

    it('reads the card on the desk reader and sends its number for the current stay: on the lock, the lock opens for it', async () => {
      await page.goto(`${baseUrl()}/room/${roomId}?tab=credentials`);
      await page.getByTestId('room-cards').waitFor();
      await page.getByTestId('room-cards-empty').waitFor();
      expect(await page.getByTestId('room-cards-send').innerText()).toBe(text(header, 'cards.send.button'));
      await openDialog();
      expect(await dialog().getByRole('heading').first().innerText()).toBe(text(header, 'cards.send.title', { room }));
      expect(await page.getByTestId('send-card-mode-stay').isChecked()).toBe(true);
      expect(await page.getByTestId('send-card-mode').innerText()).toContain(`${guest}`);
      expect(await page.locator('#send-card-valid-until').count()).toBe(0);

      // The form's own messages: a number is required, and digits only.
      await submit().click();
      expect(await page.locator('#send-card-number-error').innerText()).toBe(text(header, 'validation.cardNumberRequired'));
      await page.getByTestId('send-card-number').fill('12AB');
      await submit().click();
      expect(await page.locator('#send-card-number-error').innerText()).toBe(text(header, 'validation.cardNumberInvalid'));

      // Read from the card on the desk reader: the number fills the field.
      const uid = await placeBlankCard();
      stayCard = cardNumberOf(uid);
      await page.getByTestId('send-card-read').click();
      await page.locator(`[data-testid="send-card-read-error"], [data-testid="send-card-read-status"]:has-text("${stayCard}")`).first().waitFor();
      if (await page.getByTestId('send-card-read-error').isVisible())
        throw new Error(`reading failed: ${await page.getByTestId('send-card-read-error').innerText()}`);
      expect(await page.getByTestId('send-card-number').inputValue()).toBe(stayCard);
      expect(await page.getByTestId('send-card-read-status').innerText()).toBe(text(header, 'cards.send.readDone', { number: stayCard }));
      expect(await page.locator('#send-card-number-error').innerText()).toBe('');
      await screenshot(page, shot('dialog'));
      await submit().click();
      await expectToast(page, text(header, 'cards.send.sent', { number: stayCard }));
      await dialog().waitFor({ state: 'detached' });

      // Listed at once, over the air, for the stay; its lock's state follows with no reload until it is on the lock.
      await row(stayCard).waitFor();
      expect(await row(stayCard).innerText()).toContain(text(header, 'cards.overTheAir'));
      expect(await row(stayCard).innerText()).toContain(guest);
      await lockStateOf(stayCard, 'on_lock');
      const issued = await issueOf(stayCard);
      expect(issued).toMatchObject({ medium: 'number', state: 'issued', stayId, validUntil: expectedCheckOutAt, holderName: guest });
      await screenshot(page, shot('on-lock'));

      expect(await presentNumber(lockId, stayCard)).toMatchObject({ opened: true });
      // Another number the lock was never sent does not open it.
      expect(await presentNumber(lockId, `${stayCard}9`)).toMatchObject({ opened: false });
    });

    it("the same number sent again is refused with the server's reason, inside the dialog", async () => {
      await openDialog();
      await page.getByTestId('send-card-number').fill(stayCard);
      await submit().click();
      const error = page.getByTestId('form-error');
      await error.waitFor();
      expect(await error.innerText()).toBe(text(header, 'cards.errors.cardInUse', { room, holder: guest }));
      await dialog().waitFor();
      await screenshot(page, shot('in-use'));
      await page.getByTestId('form-dialog-cancel').click();
      // The form was changed: closing asks first.
      await page.getByTestId('discard-changes').waitFor();
      await page.getByTestId('discard-confirm').click();
      await dialog().waitFor({ state: 'detached' });
      expect(
        (await api<{ items: SentCard[] }>(page, 'card.list', { roomId, scope: 'all', pageSize: 50 })).items.filter((c) => c.cardNumber === stayCard),
      ).toHaveLength(1);
    });

    it('revoked after a confirmation, the lock refuses it', async () => {
      const issue = await issueOf(stayCard);
      await page.getByTestId(`card-${stayCard}-revoke`).click();
      await page.getByTestId('card-revoke-dialog').waitFor();
      expect(await page.getByTestId('card-revoke-dialog').innerText()).toContain(text(header, 'cards.revokeTitle', { number: stayCard }));
      await page.getByTestId('card-revoke-confirm').click();
      await expectToast(page, text(header, 'cards.revoked', { number: stayCard }));
      await row(stayCard).waitFor({ state: 'detached' });
      await waitForCardOnLocks(page, issue.id, 'removed');
      await page.getByTestId('cards-scope-history').click();
      await lockStateOf(stayCard, 'removed');
      expect(await presentNumber(lockId, stayCard)).toMatchObject({ opened: false });
      await page.getByTestId('cards-scope-active').click();
    });

    it('a typed number for a period: an end before the start is refused first; then it opens the lock', async () => {
      const number = String(5_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
      await openDialog();
      await page.getByTestId('send-card-number').fill(number);
      await page.getByTestId('send-card-mode-period').check();
      await page.locator('#send-card-valid-from').waitFor();
      const from = await page.locator('#send-card-valid-from').inputValue();
      await typeDateTime(page, 'send-card-valid-until', shiftWallClock(from, -60));
      await submit().click();
      expect(await page.locator('#send-card-valid-until-error').innerText()).toBe(text(header, 'validation.endAfterStart'));
      await typeDateTime(page, 'send-card-valid-until', shiftWallClock(from, 180));
      await page.getByTestId('send-card-note').fill(note);
      expect(await page.getByTestId('send-card-dialog').innerText()).toContain(text(header, 'cards.send.noteHintPeriod'));
      await screenshot(page, shot('period'));
      await submit().click();
      await expectToast(page, text(header, 'cards.send.sent', { number }));
      await dialog().waitFor({ state: 'detached' });
      await row(number).waitFor();
      expect(await row(number).innerText()).toContain(note);
      await lockStateOf(number, 'on_lock');
      const issued = await issueOf(number);
      expect(issued).toMatchObject({ medium: 'number', state: 'issued', stayId: null, holderName: note, note });
      expect(Date.parse(issued.validUntil!) - Date.parse(issued.validFrom)).toBe(180 * 60_000);
      expect(await presentNumber(lockId, number)).toMatchObject({ opened: true });
      await page.getByTestId('room-cards').scrollIntoViewIfNeeded();
      await screenshot(page, shot('list'));
    });
  },
);
