import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, settle, signIn, inContext } from './support';
import { languageRuns } from './support-board';
import {
  answerRoomChange,
  openRoomPicker,
  closeSql,
  focusedId,
  openRoom,
  shiftWallClock,
  sql,
  staysOfGuest,
  text,
  typeDateTime,
  waitForRoomStatus,
} from './support-stays';

/**
 * The front desk's stay work in Chinese, English and Arabic: a check-in whose answer is lost keeps
 * its form and, sent again, makes exactly one stay; half-filled forms and unsaved tabs ask before
 * they are thrown away; a reservation's guest arrives (times adjusted) or the reservation is
 * cancelled; the room page shows its current stay once; plurals read right. Rooms 201, 202,
 * 204-210 and 108 are this file's (the other browser tests use other rooms).
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
  { code: 'chs', header: 'zh-CN', first: '201', reserved: '202', cancelled: '204' },
  { code: 'en', header: 'en', first: '205', reserved: '206', cancelled: '207' },
  { code: 'Arabic', header: 'ar', first: '208', reserved: '209', cancelled: '210' },
] as const;

/** Calls of one tRPC procedure (alone or batched with others). */
const callsOf = (procedure: string) => (url: URL) => url.pathname.split('/').pop()!.split(',').includes(procedure);
const checkInCalls = callsOf('stay.checkIn');
const roomCalls = callsOf('room.get');

/** Opens the check-in of the room page and books a future stay (a reservation) for a guest and a companion. */
async function reserve(page: Page, guest: string, companion: string) {
  await page.getByTestId('action-check-in').click();
  const dialog = page.getByTestId('check-in-dialog');
  await dialog.waitFor();
  const now = await page.locator('#checkInAt').inputValue();
  await typeDateTime(page, 'checkInAt', shiftWallClock(now, 24 * 60));
  await page.locator('#guest-0-name').fill(guest);
  await page.getByTestId('add-guest').click();
  await page.locator('#guest-1-name').fill(companion);
  await page.getByTestId('check-in-submit').click();
  await dialog.waitFor({ state: 'detached' });
  // Tomorrow's: the room keeps tonight's status, and offers the reservation's arrival.
  await page.getByTestId('action-arrive').waitFor();
}

describe.each(languageRuns(RUNS, import.meta.url))('stays in $header', ({ code, header, first, reserved, cancelled }) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(`asks before a half-filled check-in of ${first} is thrown away, keeps it when the answer is lost, and makes one stay on retry`, async () => {
    await openRoom(page, first);
    await page.getByTestId('action-check-in').click();
    const dialog = page.getByTestId('check-in-dialog');
    await dialog.waitFor();
    await settle(page);
    // The main guest's name has the focus: the desk types it at once.
    await expect.poll(() => focusedId(page)).toBe('guest-0-name');
    await page.keyboard.type('Ret');

    const discard = page.getByTestId('discard-changes');
    const keepEditing = async () => {
      await discard.waitFor();
      await page.getByTestId('keep-editing').click();
      await discard.waitFor({ state: 'detached' });
      expect(await dialog.isVisible()).toBe(true);
      expect(await page.locator('#guest-0-name').inputValue()).toBe('Ret');
    };
    // Escape, ×, Cancel: each asks, and "keep editing" keeps the form as it was.
    await page.keyboard.press('Escape');
    await discard.waitFor();
    await screenshot(page, `stays-discard-question-${header}`);
    await keepEditing();
    await dialog.locator('[data-slot="dialog-close"]').click();
    await keepEditing();
    await page.getByTestId('form-dialog-cancel').click();
    await keepEditing();
    // A click outside asks too; "discard" closes. The dialog counts outside clicks again only once
    // React has committed the question's closing (milliseconds after it left the page; no person is
    // that fast): a click that came too early is clicked again.
    for (let attempt = 1; ; attempt += 1) {
      await settle(page);
      await page.mouse.click(5, 400);
      try {
        await discard.waitFor({ timeout: 2_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await page.getByTestId('discard-confirm').click();
    await dialog.waitFor({ state: 'detached' });

    // A form left untouched closes at once.
    await page.getByTestId('action-check-in').click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await discard.count()).toBe(0);

    // Plurals: one day and one night; a check-out typed by hand sets the length (two days, two nights).
    await page.getByTestId('action-check-in').click();
    await dialog.waitFor();
    const quote = page.getByTestId('price-quote');
    expect(await page.getByTestId('length-unit').innerText()).toBe(text(header, 'frontDesk.stay.lengthUnits.day', { count: 1 }));
    await quote.getByText(text(header, 'frontDesk.stay.nightCount', { count: 1 }), { exact: true }).waitFor();
    const checkInAt = await page.locator('#checkInAt').inputValue();
    await typeDateTime(page, 'expectedCheckOutAt', shiftWallClock(checkInAt, 2 * 24 * 60));
    expect(await page.locator('#lengthValue').inputValue()).toBe('2');
    expect(await page.getByTestId('length-unit').innerText()).toBe(text(header, 'frontDesk.stay.lengthUnits.day', { count: 2 }));
    await quote.getByText(text(header, 'frontDesk.stay.nightCount', { count: 2 }), { exact: true }).waitFor();
    if (header === 'ar') {
      // Arabic has a form for two ("ليلتان") and another for three to ten ("3 ليالٍ").
      expect(text(header, 'frontDesk.stay.nightCount', { count: 2 })).toBe('ليلتان');
      await typeDateTime(page, 'expectedCheckOutAt', shiftWallClock(checkInAt, 3 * 24 * 60));
      expect(await page.getByTestId('length-unit').innerText()).toBe('أيام');
      await quote.getByText('3 ليالٍ', { exact: true }).waitFor();
      await typeDateTime(page, 'expectedCheckOutAt', shiftWallClock(checkInAt, 2 * 24 * 60));
      await quote.getByText('ليلتان', { exact: true }).waitFor();
    }
    await screenshot(page, `stays-check-in-plurals-${header}`);

    const guest = `Retry ${first}`;
    const remark = `Quiet room please ${first}`;
    await page.locator('#guest-0-name').fill(guest);
    await page.getByTestId('add-guest').click();
    await page.locator('#guest-1-name').fill(`Companion ${first}`);
    await page.getByTestId('breakfast').click();
    await page.getByTestId('remark').fill(remark);

    // No network: the failure is said inside the dialog, the form is kept, nothing was made.
    const noNetwork = (route: Route) => route.abort('internetdisconnected');
    await page.route('**/trpc/**', noNetwork);
    await page.getByTestId('check-in-submit').click();
    const failure = dialog.getByTestId('form-error');
    await failure.waitFor();
    expect(await failure.innerText()).toContain(text(header, 'common.noAnswer'));
    expect(await page.locator('#guest-0-name').inputValue()).toBe(guest);
    expect(await staysOfGuest(guest)).toHaveLength(0);
    await page.unroute('**/trpc/**', noNetwork);

    // The server does it but the answer is lost on the way back: the same, and already one stay.
    const answerLost = async (route: Route) => {
      await route.fetch();
      await route.abort('connectionreset');
    };
    await page.route(checkInCalls, answerLost);
    await page.getByTestId('check-in-submit').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="check-in-submit"]')?.hasAttribute('disabled'));
    await failure.waitFor();
    expect(await page.getByTestId('remark').inputValue()).toBe(remark);
    await screenshot(page, `stays-check-in-failed-${header}`);
    expect(await staysOfGuest(guest)).toHaveLength(1);
    await page.unroute(checkInCalls, answerLost);

    // Sent again with the network back: the server answers with the stay the first attempt made, and the dialog closes.
    const answer = page.waitForResponse((response) => checkInCalls(new URL(response.url())));
    await page.getByTestId('check-in-submit').click();
    expect((await answer).status(), 'the retry of the same check-in is answered with its stay').toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await waitForRoomStatus(page, 'checked_in');
    const stays = await staysOfGuest(guest);
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ status: 'in_house', guests: 2, remark, breakfast: true });

    // The room page shows the stay once, with its remark, breakfast and options; the stays tab does not repeat it.
    const current = page.getByTestId('current-stay');
    await current.getByText(`Companion ${first}`).waitFor();
    expect(await current.count()).toBe(1);
    expect(await page.getByTestId('current-stay-remark').innerText()).toBe(remark);
    expect(await page.getByTestId('current-stay-breakfast').getAttribute('data-on')).toBe('true');
    expect(await page.getByTestId('current-stay-disable-old-cards').getAttribute('data-on')).toBe('false');
    await page.getByTestId('room-stays-empty').waitFor();
    expect(await page.getByTestId(`stay-${stays[0]!.id}`).count()).toBe(0);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('h1').innerText()).toBe(text(header, 'frontDesk.detail.heading', { room: first }));
    await screenshot(page, `stays-current-stay-${header}`);
  });

  it(`checks in the guest of a reservation of ${reserved} on arrival, with adjusted times and a dirty-room confirmation`, async () => {
    await openRoom(page, reserved);
    const guest = `Arrival ${reserved}`;
    await reserve(page, guest, `Friend ${reserved}`);
    const [booked] = await staysOfGuest(guest);
    expect(booked?.status).toBe('reserved');

    // A reservation is arrived or cancelled, never "checked out"; the room can still be sold
    // tonight around it (a check-in of a stay that ends before it: the server decides by time).
    await page.getByTestId('action-arrive').waitFor();
    expect(await page.getByTestId('action-cancel-reservation').innerText()).toBe(text(header, 'frontDesk.detail.cancelReservation'));
    expect(await page.getByTestId('action-check-in').count()).toBe(1);
    expect(await page.getByTestId('action-check-out').count()).toBe(0);

    // Housekeeping has not cleaned the room yet.
    await page.getByTestId('tab-status').click();
    await page.getByTestId('status-target-dirty').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="clean-status"]')?.getAttribute('data-value') === 'dirty');

    await page.getByTestId('action-arrive').click();
    const dialog = page.getByTestId('arrive-dialog');
    await dialog.waitFor();
    const guests = dialog.getByTestId('arrive-guests');
    await guests.getByText(guest).waitFor();
    await guests.getByText(`Friend ${reserved}`).waitFor();
    // Arrived twenty minutes ago; leaves a day later than booked (priced again).
    const now = await page.locator('#arriveCheckInAt').inputValue();
    const arrivedAt = shiftWallClock(now, -20);
    await typeDateTime(page, 'arriveCheckInAt', arrivedAt);
    expect(await dialog.getByTestId('arrive-price-kept').count()).toBe(1);
    const bookedOut = await page.locator('#arriveCheckOutAt').inputValue();
    await typeDateTime(page, 'arriveCheckOutAt', shiftWallClock(bookedOut, 24 * 60));
    await dialog.getByTestId('arrive-quote-total').waitFor();
    await screenshot(page, `stays-arrive-${header}`);

    await page.getByTestId('arrive-submit').click();
    await page.getByTestId('check-in-warning').waitFor();
    await screenshot(page, `stays-arrive-dirty-room-${header}`);
    await page.getByTestId('check-in-continue').click();
    await dialog.waitFor({ state: 'detached' });
    await waitForRoomStatus(page, 'checked_in');

    const [arrived] = await staysOfGuest(guest);
    expect(arrived).toMatchObject({ id: booked!.id, status: 'in_house', guests: 2 });
    // The times the desk set: arrival twenty minutes ago (to the minute), check-out a day later than booked.
    expect(Math.abs(arrived!.checkInAt.getTime() - (Date.now() - 20 * 60_000))).toBeLessThan(2 * 60_000);
    expect(arrived!.expectedCheckOutAt.getTime() - booked!.expectedCheckOutAt.getTime()).toBeGreaterThan(24 * 3_600_000 - 60_000);
    const current = page.getByTestId('current-stay');
    await page.waitForFunction(() => document.querySelector('[data-testid="current-stay"]')?.getAttribute('data-state') === 'in_house');
    await current.getByText(`Friend ${reserved}`).waitFor();
    await page.getByTestId('action-check-out').waitFor();

    // A late companion joins the stay from the current stay's guest list.
    await page.getByTestId('add-co-guest').click();
    const addGuest = page.getByTestId('add-guest-dialog');
    await addGuest.waitFor();
    await settle(page);
    await expect.poll(() => focusedId(page)).toBe('co-guest-name');
    await page.keyboard.type(`Late ${reserved}`);
    await page.getByTestId('add-guest-submit').click();
    await addGuest.waitFor({ state: 'detached' });
    await current.getByText(`Late ${reserved}`).waitFor();
    expect((await staysOfGuest(guest))[0]?.guests).toBe(3);
    await screenshot(page, `stays-arrived-${header}`);
  });

  it(`cancels a reservation of ${cancelled} as a cancellation, and moves ${first}'s guests there with the searchable room picker`, async () => {
    await openRoom(page, cancelled);
    const guest = `Cancel ${cancelled}`;
    await reserve(page, guest, `Other ${cancelled}`);

    await page.getByTestId('action-cancel-reservation').click();
    const confirm = page.getByTestId('cancel-reservation-confirm');
    await confirm.waitFor();
    await confirm.getByText(text(header, 'reservations.cancel.title', { room: cancelled })).waitFor();
    expect(await page.getByTestId('cancel-reservation-submit').innerText()).toBe(text(header, 'reservations.cancel.submit'));
    // A reason is asked (a code, translated where it is shown).
    await page.getByTestId('cancel-reservation-submit').click();
    await confirm.getByText(text(header, 'reservations.validation.reasonRequired')).waitFor();
    await page.getByTestId('cancel-reason').selectOption('entered_by_mistake');
    await screenshot(page, `stays-cancel-reservation-${header}`);
    await page.getByTestId('cancel-reservation-submit').click();
    await confirm.waitFor({ state: 'detached' });
    await waitForRoomStatus(page, 'vacant');
    expect((await staysOfGuest(guest)).map((s) => s.status)).toEqual(['ended']);

    // The freed room costs more: the move asks whether the difference is charged (issue 36).
    const mover = (await staysOfGuest(`Retry ${first}`)).find((s) => s.status === 'in_house')!;
    await sql(
      `UPDATE "Room" SET "usualPrice" = "usualPrice" + 10000, "weekendPrice" = "weekendPrice" + 10000
        WHERE name = $1 AND "hotelId" = (SELECT "hotelId" FROM "Stay" WHERE id = $2)`,
      [cancelled, mover.id],
    );
    const [before] = await sql<{ priceAmount: number }>(`SELECT "priceAmount" FROM "Stay" WHERE id = $1`, [mover.id]);
    // The room picker searches the server: the freed room is found by its name.
    await openRoom(page, first);
    await page.getByTestId('action-change-room').click();
    const dialog = page.getByTestId('change-room-dialog');
    await dialog.waitFor();
    await openRoomPicker(page);
    await page.getByTestId('change-room-picker-search').fill(cancelled);
    const option = page.getByRole('option', { name: new RegExp(`^${cancelled}`) });
    // The server's answer to the search: that room alone (of 30).
    await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 1);
    await option.waitFor();
    await screenshot(page, `stays-change-room-picker-${header}`);
    await option.click();
    // Nothing is chosen for the clerk: charge the difference or a complimentary upgrade, the move waits.
    const upgrade = dialog.getByTestId('change-room-upgrade');
    await upgrade.waitFor();
    expect(await dialog.getByTestId('change-room-upgrade-charge').isChecked()).toBe(false);
    expect(await dialog.getByTestId('change-room-upgrade-complimentary').isChecked()).toBe(false);
    expect(await page.getByTestId('change-room-submit').isDisabled()).toBe(true);
    await upgrade.getByText(text(header, 'frontDesk.stay.upgradeQuestion')).waitFor();
    await answerRoomChange(page, 'complimentary');
    await screenshot(page, `stays-change-room-upgrade-${header}`);
    await page.getByTestId('change-room-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction((name) => document.querySelector('h1')?.textContent?.includes(name), cancelled);
    await waitForRoomStatus(page, 'checked_in');
    expect((await staysOfGuest(`Retry ${first}`)).map((s) => [s.status, s.room])).toEqual([
      ['moved', first],
      ['in_house', cancelled],
    ]);
    // A complimentary upgrade: the guest keeps the booked price.
    const [after] = await sql<{ priceAmount: number }>(`SELECT "priceAmount" FROM "Stay" WHERE "movedFromStayId" = $1`, [mover.id]);
    expect(after!.priceAmount).toBe(before!.priceAmount);
  });

  it('asks before unsaved settings or prices of 108 are lost on a tab switch or on leaving, and focuses the guest name from the board', async () => {
    // From the board's menu, the check-in opens on the main guest's name.
    await page.goto(`${baseUrl()}/room`);
    await page.getByTestId('room-actions-108').click();
    await page.getByTestId('room-action-check-in').click();
    await page.getByTestId('check-in-dialog').waitFor();
    await settle(page);
    await expect.poll(() => focusedId(page)).toBe('guest-0-name');
    await page.keyboard.press('Escape');
    await page.getByTestId('check-in-dialog').waitFor({ state: 'detached' });

    await openRoom(page, '108');
    const discard = page.getByTestId('discard-changes');
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('room-remarkName').fill('Sea view');
    expect(await page.getByTestId('save-bar').getAttribute('data-dirty')).toBe('true');
    // The battery is the lock's: shown, never an input.
    await page.getByTestId('room-lock-power').waitFor();
    expect(await page.getByTestId('room-lock-power').locator('input').count()).toBe(0);
    await screenshot(page, `stays-settings-unsaved-${header}`);

    await page.getByTestId('tab-price').click();
    await discard.waitFor();
    await page.getByTestId('keep-editing').click();
    await discard.waitFor({ state: 'detached' });
    expect(await page.getByTestId('tab-settings').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('room-remarkName').inputValue()).toBe('Sea view');
    // Focus is back where the user was typing, not lost on the page (and the tab did not switch).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName))
      .toBe('room-remarkName');
    expect(await page.getByTestId('tab-settings').getAttribute('aria-selected')).toBe('true');

    await page.getByTestId('tab-price').click();
    await page.getByTestId('discard-confirm').click();
    await page.getByTestId('room-price-form').waitFor();
    await page.getByTestId('price-usualPrice').fill('123');
    // A specific-date price: the date typed in the console's date field.
    await page.getByTestId('add-date-price').click();
    await typeDateTime(page, 'date-price-0-date', '2026-12-31');
    await page.locator('#date-price-0-price').fill('520');
    await page.getByTestId('date-price-0-date-reading').getByText(/2026/).waitFor();
    await page.getByTestId('tab-stays').click();
    await discard.waitFor();
    await page.getByTestId('keep-editing').click();
    await discard.waitFor({ state: 'detached' });
    expect(await page.getByTestId('price-usualPrice').inputValue()).toBe('123');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName)).toBe('date-price-0-price');
    expect(await page.getByTestId('tab-price').getAttribute('aria-selected')).toBe('true');
    await screenshot(page, `stays-price-unsaved-${header}`);

    // Leaving the page asks as well; discarding leaves, and nothing was saved.
    await page.getByTestId('back-to-board').click();
    await discard.waitFor();
    await page.getByTestId('discard-confirm').click();
    await page.waitForURL((url) => url.pathname === '/room');
    const [room] = await sql<{ remarkName: string; usualPrice: number }>(`SELECT "remarkName", "usualPrice" FROM "Room" WHERE name = '108'`);
    expect(room?.remarkName).not.toBe('Sea view');
    expect(room?.usualPrice).not.toBe(12_300);
  });
});

describe('room page states', () => {
  it('says once that a room is missing, and offers a retry when the room cannot be loaded', async () => {
    const context = await newContext(browser, { language: 'en' });
    const page = await context.newPage();
    await inContext(context, async () => {
      await signIn(page, DEMO_OWNER, '/room/999999');
      await page.getByTestId('room-detail-error').waitFor();
      await settle(page);
      expect(await page.getByText(text('en', 'frontDesk.detail.notFoundTitle')).count()).toBe(1);
      expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
      expect(await page.locator('h1').count()).toBe(1);
      await screenshot(page, 'stays-room-missing-en');

      const [room] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = '108'`);
      const noAnswer = (route: Route) => route.abort('internetdisconnected');
      await page.route(roomCalls, noAnswer);
      await page.goto(`${baseUrl()}/room/${room!.id}`);
      await page.getByTestId('load-error').waitFor();
      await page.getByText(text('en', 'common.loadFailed', { what: text('en', 'frontDesk.detail.loadWhat.room') })).waitFor();
      expect(await page.locator('h1').count()).toBe(1);
      await screenshot(page, 'stays-room-load-error-en');
      await page.unroute(roomCalls, noAnswer);
      await page.getByTestId('load-error-retry').click();
      await page.getByTestId('room-detail').waitFor();
      expect(await page.getByTestId('load-error').count()).toBe(0);
    });
  });
});
