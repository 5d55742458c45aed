import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { api, withPage, languageRuns } from './support-board';
import { closeSql, focusedId, sql, staysOfGuest, text } from './support-stays';

/**
 * Dates and times as a clerk types them (issue 17 §3), in Chinese, English and Arabic: the check-in
 * proposes the hotel's own check-out time; the calendar is worked from the keyboard alone (opened
 * with Alt+Down, moved with the arrows, a day picked with Enter gets the hotel's check-in time, or
 * now for today, Escape closes and gives the focus back), its buttons named in the page's language;
 * "YYYY-MM-DD HH:mm" typed key by key (the space included) into the expected check-out and the
 * renewal is taken and shown by the stay; "+1 day" pressed twice is two days; a time that does not
 * exist is refused with the form's message; an API key expiry typed with a space is taken. Each run
 * makes a room of its own; the hotel's check-in and check-out times are set to 15:00 and 11:00 for
 * this file and put back afterwards.
 */

let browser: Browser;
type HotelInfo = { timeZone: string; checkInTime: string; checkOutTime: string };
let original: HotelInfo | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  if (original) {
    const hotel = original;
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO_OWNER);
      await api(page, 'hotel.update', { checkInTime: hotel.checkInTime, checkOutTime: hotel.checkOutTime }, 'mutation');
    });
  }
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN' },
  { code: 'en', header: 'en' },
  { code: 'Arabic', header: 'ar' },
] as const;

/** `YYYY-MM-DD HH:mm` of an instant on a zone's clock. */
function wallClock(at: number, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
/** The instant of a zone's wall-clock time `YYYY-MM-DD HH:mm`. */
function instantOf(wall: string, timeZone: string): number {
  const guess = Date.parse(`${wall.replace(' ', 'T')}:00Z`);
  const drift = Date.parse(`${wallClock(guess, timeZone).replace(' ', 'T')}:00Z`) - guess;
  return guess - drift;
}
function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Types into a field key by key, as a person does (the field starts empty), and leaves it. */
async function typeKeys(page: Page, id: string, value: string) {
  const input = page.locator(`#${id}`);
  await input.fill('');
  await input.pressSequentially(value);
  // What was typed is what the field shows, space and all, before it is left.
  expect(await input.inputValue()).toBe(value);
  await input.blur();
}

/** The date in words as the calendar's day buttons name it (the browser's own Intl, in the page's language). */
const fullDate = (page: Page, header: string, date: string) =>
  page.evaluate(
    ({ header, date }) => {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      return new Intl.DateTimeFormat(header, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(new Date(y, m - 1, d));
    },
    { header, date },
  );
const shownDateTime = (page: Page, header: string, at: number, timeZone: string) =>
  page.evaluate(({ header, at, timeZone }) => new Intl.DateTimeFormat(header, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(at)), {
    header,
    at,
    timeZone,
  });

describe.each(languageRuns(RUNS, import.meta.url))('dates typed and picked in $header', ({ code, header }) => {
  it('check-in at the hotel times, the calendar by keyboard, typed check-out and renewal, +1 day twice, a typed API key expiry', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const before = await api<HotelInfo>(page, 'hotel.info', {});
      original ??= before;
      await api(page, 'hotel.update', { checkInTime: '15:00', checkOutTime: '11:00' }, 'mutation');
      const zone = before.timeZone;
      const tag = `DT-${code}-${Date.now() % 100_000}`;
      const room = await api<{ id: number }>(page, 'room.create', { name: tag }, 'mutation');
      await api(page, 'price.setRoom', { roomId: room.id, usualPrice: 30_000, depositAmount: 0 }, 'mutation');

      await page.goto(`${baseUrl()}/room/${room.id}`);
      await page.getByTestId('room-detail').waitFor();
      await page.getByTestId('action-check-in').click();
      const dialog = page.getByTestId('check-in-dialog');
      await dialog.waitFor();
      await settle(page);

      // A walk-in: in now, out at the hotel's check-out time (11:00) after one night; a guest of the
      // small hours (before 06:00, at least an hour before 11:00) leaves the same morning.
      const checkIn = await page.locator('#checkInAt').inputValue();
      expect(Math.abs(instantOf(checkIn, zone) - Date.now())).toBeLessThan(2 * 60_000);
      const [today, time] = checkIn.split(' ') as [string, string];
      const smallHours = minutes(time) < minutes('06:00') && minutes('11:00') - minutes(time) >= 60;
      expect(await page.locator('#expectedCheckOutAt').inputValue()).toBe(`${addDays(today, smallHours ? 0 : 1)} 11:00`);
      // The hotel's zone is stated by the field.
      expect(await page.getByTestId('expectedCheckOutAt-reading').innerText()).toContain(text(header, 'dateField.hotelTime', { zone }));

      // The calendar from the keyboard alone: Alt+Down in the check-in opens it on today, named so.
      const next = header === 'ar' ? 'ArrowLeft' : 'ArrowRight';
      const previous = header === 'ar' ? 'ArrowRight' : 'ArrowLeft';
      await page.locator('#checkInAt').focus();
      await page.keyboard.press('Alt+ArrowDown');
      const popover = page.getByTestId('checkInAt-popover');
      await popover.waitFor();
      await settle(page);
      const todayWords = await fullDate(page, header, today);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe(text(header, 'dateField.calendar.selected', { date: text(header, 'dateField.calendar.today', { date: todayWords }) }));
      expect(await popover.locator('.rdp-button_previous').getAttribute('aria-label')).toBe(text(header, 'dateField.calendar.previousMonth'));
      expect(await popover.locator('.rdp-button_next').getAttribute('aria-label')).toBe(text(header, 'dateField.calendar.nextMonth'));
      expect(await popover.locator('.rdp-nav').getAttribute('aria-label')).toBe(text(header, 'dateField.calendar.navigation'));
      expect(await popover.getByRole('grid').getAttribute('aria-label')).toBe(
        await page.evaluate(({ header, today }) => new Intl.DateTimeFormat(header, { year: 'numeric', month: 'long' }).format(new Date(`${today}T12:00:00`)), {
          header,
          today,
        }),
      );
      expect(await popover.getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      // Tomorrow, picked with Enter, is a booking: the hotel's check-in time, and the check-out follows.
      await page.keyboard.press(next);
      const tomorrow = addDays(today, 1);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(await fullDate(page, header, tomorrow));
      await screenshot(page, `dates-calendar-${header}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedId(page)).toBe('checkInAt-time');
      expect(await page.locator('#checkInAt-time').inputValue()).toBe('15:00');
      await page.keyboard.press('Enter');
      await popover.waitFor({ state: 'detached' });
      await expect.poll(() => focusedId(page)).toBe('checkInAt');
      expect(await page.locator('#checkInAt').inputValue()).toBe(`${tomorrow} 15:00`);
      expect(await page.locator('#expectedCheckOutAt').inputValue()).toBe(`${addDays(tomorrow, 1)} 11:00`);
      // Back to today: the time it is now; Escape closes and gives the focus back to the field.
      await page.keyboard.press('Alt+ArrowDown');
      await popover.waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe(text(header, 'dateField.calendar.selected', { date: await fullDate(page, header, tomorrow) }));
      await page.keyboard.press(previous);
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedId(page)).toBe('checkInAt-time');
      const nowTime = await page.locator('#checkInAt-time').inputValue();
      expect(Math.abs(instantOf(`${today} ${nowTime}`, zone) - Date.now())).toBeLessThan(2 * 60_000);
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'detached' });
      await expect.poll(() => focusedId(page)).toBe('checkInAt');
      expect(await dialog.isVisible()).toBe(true);
      expect(await page.locator('#checkInAt').inputValue()).toBe(`${today} ${nowTime}`);

      // The expected check-out typed as the placeholder shows it, key by key: taken as it is.
      const checkOut = `${addDays(today, 3)} 10:30`;
      await typeKeys(page, 'expectedCheckOutAt', checkOut);
      expect(await page.locator('#expectedCheckOutAt-error').innerText()).toBe('');
      // The length follows it, in nights as the quote counts them (the small hours included).
      expect(await page.locator('#lengthValue').inputValue()).toBe('3');
      await page
        .getByTestId('price-quote')
        .getByText(text(header, 'frontDesk.stay.nightCount', { count: 3 }), { exact: true })
        .waitFor();
      await screenshot(page, `dates-check-in-typed-${header}`);
      // "+1 day" pressed twice: two days more, and the length follows.
      await page.getByTestId('checkIn-plusDay').click();
      await page.getByTestId('checkIn-plusDay').click();
      const extended = `${addDays(today, 5)} 10:30`;
      expect(await page.locator('#expectedCheckOutAt').inputValue()).toBe(extended);
      expect(await page.locator('#lengthValue').inputValue()).toBe('5');
      await page.locator('#guest-0-name').fill(`Guest ${tag}`);
      await page.getByTestId('check-in-submit').click();
      await dialog.waitFor({ state: 'detached' });
      const [stay] = await staysOfGuest(`Guest ${tag}`);
      expect(stay?.status).toBe('in_house');
      expect(stay!.expectedCheckOutAt.getTime()).toBe(instantOf(extended, zone));
      const current = page.getByTestId('current-stay');
      await current.getByText(await shownDateTime(page, header, instantOf(extended, zone), zone)).waitFor();

      // The renewal proposes the current check-out (nothing added for the clerk); "+1 day" adds exactly one
      // night, pressed twice two, and the dialog says how many nights it adds before it is confirmed.
      await page.getByTestId('action-renew').click();
      const renew = page.getByTestId('renew-dialog');
      await renew.waitFor();
      const field = page.locator('#renewCheckOutAt');
      expect(await field.inputValue()).toBe(extended);
      expect(await page.getByTestId('renew-nights').count()).toBe(0);
      await page.getByTestId('renew-plusDay').click();
      expect(await field.inputValue()).toBe(`${addDays(today, 6)} 10:30`);
      await page
        .getByTestId('renew-nights')
        .getByText(text(header, 'frontDesk.stay.renewNights', { count: 1 }))
        .waitFor();
      await page.getByTestId('renew-plusDay').click();
      expect(await field.inputValue()).toBe(`${addDays(today, 7)} 10:30`);
      await page
        .getByTestId('renew-nights')
        .getByText(text(header, 'frontDesk.stay.renewNights', { count: 2 }))
        .waitFor();
      // A time that does not exist is refused with the form's own message, not dropped.
      await typeKeys(page, 'renewCheckOutAt', `${addDays(today, 7)} 25:00`);
      await page.locator('#renewCheckOutAt-error').getByText(text(header, 'validation.dateTimeInvalid')).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      // Typed right, key by key: taken, and the stay shows it.
      const renewed = `${addDays(today, 7)} 09:45`;
      await typeKeys(page, 'renewCheckOutAt', renewed);
      expect(await page.locator('#renewCheckOutAt-error').innerText()).toBe('');
      await page.getByTestId('renew-quote-total').waitFor();
      await screenshot(page, `dates-renew-typed-${header}`);
      await page.getByTestId('renew-submit').click();
      await renew.waitFor({ state: 'detached' });
      await current.getByText(await shownDateTime(page, header, instantOf(renewed, zone), zone)).waitFor();
      expect((await staysOfGuest(`Guest ${tag}`))[0]!.expectedCheckOutAt.getTime()).toBe(instantOf(renewed, zone));

      // An API key whose expiry is typed with a space.
      await page.goto(`${baseUrl()}/thirdPartyAuthorization/thirdPartyAuthorization`);
      await page.getByTestId('api-keys-page').waitFor();
      await page.getByTestId('api-key-new').click();
      const keyDialog = page.getByTestId('api-key-dialog');
      await keyDialog.waitFor();
      const keyName = `Expiry ${tag}`;
      await page.getByTestId('api-key-name').fill(keyName);
      await page.getByTestId('api-key-perm-room-read').click();
      const expiry = `${addDays(today, 30)} 18:00`;
      await typeKeys(page, 'api-key-expires', expiry);
      expect(await page.locator('#api-key-expires-error').innerText()).toBe('');
      await screenshot(page, `dates-api-key-expiry-${header}`);
      await page.getByTestId('api-key-submit').click();
      await page.getByTestId('api-key-created-dialog').waitFor();
      const [key] = await sql<{ expiresAt: Date }>(`SELECT "expiresAt" FROM "ApiKey" WHERE name = $1`, [keyName]);
      expect(key?.expiresAt.getTime()).toBe(instantOf(expiry, zone));
    });
  });
});
