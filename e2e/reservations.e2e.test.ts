import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDateTime, zonedToInstant } from '@console/shared';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { closeSql, sql, text, typeDateTime } from './support-stays';
import { api, languageRuns } from './support-board';

/**
 * Reservations at the desk (issue 17 §4) in Chinese, English and Arabic: a reservation taken from
 * the board for tomorrow, the same room sold tonight to a walk-in who leaves before it, both seen on
 * the board; tomorrow's arrival on the today board; a reservation for today taken from the today
 * board and arrived there. The dates come from the hotel's own clock (its time zone, read from the
 * database), never from the hour the run happens at; the hotel's no-show time is put six hours
 * ahead for the run (and set back after), so a reservation arriving "now" stays awaited whatever
 * the hour. Rooms 761-766 are this file's own.
 */

let browser: Browser;
let hotel: { id: number; timeZone: string; noShowTime: string };
beforeAll(async () => {
  browser = await launchBrowser();
  [hotel] = (await sql<{ id: number; timeZone: string; noShowTime: string }>(
    `SELECT h.id, h."timeZone", h."noShowTime" FROM "Hotel" h JOIN "Room" r ON r."hotelId" = h.id WHERE r.name = '101' AND r."deletedAt" IS NULL LIMIT 1`,
  )) as [typeof hotel];
  const later = localDateTime(Date.now() + 6 * 3_600_000, hotel.timeZone).slice(11, 16);
  await sql(`UPDATE "Hotel" SET "noShowTime" = $1 WHERE id = $2`, [later, hotel.id]);
});
afterAll(async () => {
  if (hotel) await sql(`UPDATE "Hotel" SET "noShowTime" = $1 WHERE id = $2`, [hotel.noShowTime, hotel.id]);
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', room: '761', todayRoom: '764' },
  { code: 'en', header: 'en', room: '762', todayRoom: '765' },
  { code: 'Arabic', header: 'ar', room: '763', todayRoom: '766' },
] as const;

/** A clean room of this file (made once per run: the demo rooms belong to the other browser tests). */
async function ownRoom(name: string): Promise<number> {
  const [found] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [name]);
  if (found) return found.id;
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "updatedAt") VALUES ($1, $2, 760, 20000, now()) RETURNING id`,
    [hotel.id, name],
  );
  return room!.id;
}

/** The hotel's wall clock now (`YYYY-MM-DD HH:mm`), and the calendar date of tomorrow there. */
const wallClock = () => localDateTime(Date.now(), hotel.timeZone).replace('T', ' ');
const tomorrow = () => addDays(wallClock().slice(0, 10), 1);

async function staysOf(guest: string) {
  return sql<{ id: number; status: string; awaitsArrival: boolean; checkInAt: Date; expectedCheckOutAt: Date; room: string }>(
    `SELECT s.id, s.status::text AS status, s."awaitsArrival", s."checkInAt", s."expectedCheckOutAt", r.name AS room
       FROM "Stay" s JOIN "Room" r ON r.id = s."roomId"
      WHERE EXISTS (SELECT 1 FROM "StayGuest" g WHERE g."stayId" = s.id AND g."isPrimary" AND g.name = $1) ORDER BY s.id`,
    [guest],
  );
}

/** The board filtered to one room, its tile on the page. */
async function boardTile(page: Page, room: string) {
  await page.goto(`${baseUrl()}/room?search=${room}`);
  const tile = page.getByTestId(`room-tile-${room}`);
  await tile.waitFor();
  return tile;
}

const tileStatus = (page: Page, room: string, status: string) =>
  page.waitForFunction(([name, s]) => document.querySelector(`[data-testid="room-tile-${name}"]`)?.getAttribute('data-status') === s, [room, status] as const, {
    timeout: 15_000,
  });

describe.each(languageRuns(RUNS, import.meta.url))('reservations in $header', ({ code, header, room, todayRoom }) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    await ownRoom(room);
    await ownRoom(todayRoom);
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(`takes a reservation of ${room} for tomorrow from the board, then sells ${room} tonight to a walk-in; the board shows both`, async () => {
    const booker = `Booker ${room}`;
    const walkIn = `Walk-in ${room}`;
    await boardTile(page, room);
    await page.getByTestId(`room-actions-${room}`).click();
    await page.getByTestId('room-action-reserve').click();
    const dialog = page.getByTestId('reservation-dialog');
    await dialog.waitFor();
    await dialog.getByText(text(header, 'reservations.titleRoom', { room })).waitFor();
    // Tomorrow at the hotel's check-in time, one night, to its check-out time.
    expect(await page.locator('#reservation-checkInAt').inputValue()).toBe(`${tomorrow()} 14:00`);
    expect(await page.locator('#reservation-expectedCheckOutAt').inputValue()).toBe(`${addDays(tomorrow(), 1)} 12:00`);
    await page.locator('#reservation-guest-0-name').fill(booker);
    // The room's deposit is shown as what to take, never filled in; one taken needs how it was paid.
    expect(await page.getByTestId('reservation-depositAmount').inputValue()).toBe('');
    expect(await page.getByTestId('reservation-depositMethod').inputValue()).toBe('');
    await page.getByTestId('reservation-depositAmount').fill('100');
    await page.getByTestId('reservation-submit').click();
    await page.locator('#reservation-depositMethod-error').getByText(text(header, 'validation.paymentMethodInvalid')).waitFor();
    await page.getByTestId('reservation-depositMethod').selectOption('cash');
    await page
      .getByTestId('reservation-quote')
      .getByText(text(header, 'frontDesk.stay.nightCount', { count: 1 }), { exact: true })
      .waitFor();
    await screenshot(page, `reservations-form-${header}`);
    await page.getByTestId('reservation-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const [booked] = await staysOf(booker);
    expect(booked).toMatchObject({ status: 'reserved', awaitsArrival: true, room });
    expect(booked!.checkInAt.getTime()).toBe(zonedToInstant(`${tomorrow()}T14:00`, hotel.timeZone)!.getTime());

    // Free tonight: the tile says so, and shows the reservation.
    await tileStatus(page, room, 'vacant');
    const tile = page.getByTestId(`room-tile-${room}`);
    await tile.getByTestId('room-reservation').waitFor();
    await screenshot(page, `reservations-board-reserved-tomorrow-${header}`);
    // Its page calls it a reservation, not a current stay, and a walk-in is "another guest" beside the booking's own arrival.
    await tile.click();
    await page.getByTestId('room-detail').waitFor();
    await expect.poll(() => page.getByTestId('current-stay-heading').innerText()).toBe(text(header, 'frontDesk.detail.reservationHeading'));
    expect(await page.getByTestId('action-check-in').innerText()).toBe(text(header, 'frontDesk.detail.checkInOther'));
    await page.getByTestId('action-arrive').waitFor();
    await page.goBack();
    await tile.getByTestId('room-reservation').waitFor();

    // Sold tonight to a walk-in leaving tomorrow at noon, before the reservation arrives.
    await page.getByTestId(`room-actions-${room}`).click();
    await page.getByTestId('room-action-check-in').click();
    const checkIn = page.getByTestId('check-in-dialog');
    await checkIn.waitFor();
    await typeDateTime(page, 'expectedCheckOutAt', `${tomorrow()} 12:00`);
    await page.locator('#guest-0-name').fill(walkIn);
    await page.getByTestId('check-in-submit').click();
    await checkIn.waitFor({ state: 'detached' });
    expect((await staysOf(walkIn)).map((s) => s.status)).toEqual(['in_house']);
    await tileStatus(page, room, 'checked_in');
    await tile.getByTestId('room-next-reservation').waitFor();
    expect(await tile.getByTestId('room-next-reservation').getAttribute('data-stay-id')).toBe(String(booked!.id));
    await screenshot(page, `reservations-board-sold-tonight-${header}`);

    // The room's page shows both: the walk-in now, the reservation next.
    await page.getByTestId(`room-tile-${room}`).click();
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('current-stay').getByText(walkIn).waitFor();
    expect(await page.getByTestId('next-reservation').getAttribute('data-stay-id')).toBe(String(booked!.id));
    await screenshot(page, `reservations-room-page-${header}`);
  });

  it(`shows tomorrow's arrival on the today board, and takes and arrives a reservation of ${todayRoom} for today there`, async () => {
    const [booked] = await staysOf(`Booker ${room}`);
    await page.goto(`${baseUrl()}/today`);
    const panel = page.getByTestId('arrivals-panel');
    await panel.waitFor();
    await page.getByTestId('arrivals-tomorrow').click();
    await panel.getByTestId(`arrival-${booked!.id}`).waitFor();
    await screenshot(page, `reservations-today-tomorrow-${header}`);
    // The deposit shown is the one the folio holds (issue 36 §5): the 100.00 taken, then 60.00 once
    // 40.00 of it went back, a change made elsewhere that the open list follows.
    const deposit = panel.getByTestId(`arrival-${booked!.id}`).getByTestId('arrival-deposit');
    await expect.poll(() => deposit.getAttribute('data-amount')).toBe('10000');
    const folio = await api<{ entries: { id: number; kind: string }[] }>(page, 'order.folio', { stayId: booked!.id });
    const taken = folio.entries.find((e) => e.kind === 'deposit')!;
    await api(page, 'order.refund', { entryId: taken.id, amount: 4_000, reason: 'Part of the deposit back', method: 'cash' }, 'mutation');
    await expect.poll(() => deposit.getAttribute('data-amount')).toBe('6000');

    // A guest who telephones for tonight: taken from the today board, room chosen in the dialog.
    await page.getByTestId('arrivals-today').click();
    await page.getByTestId('arrivals-new-reservation').click();
    const dialog = page.getByTestId('reservation-dialog');
    await dialog.waitFor();
    await page.getByTestId('reservation-room').click();
    await page.getByTestId('reservation-room-search').fill(todayRoom);
    await page.getByRole('option', { name: new RegExp(`^${todayRoom}`) }).click();
    await typeDateTime(page, 'reservation-checkInAt', wallClock());
    await typeDateTime(page, 'reservation-expectedCheckOutAt', `${tomorrow()} 12:00`);
    const guest = `Tonight ${todayRoom}`;
    await page.locator('#reservation-guest-0-name').fill(guest);
    await page.getByTestId('reservation-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const [tonight] = await staysOf(guest);
    expect(tonight).toMatchObject({ status: 'reserved', awaitsArrival: true, room: todayRoom });

    // Listed among today's arrivals with "check in" and "cancel"; the guest comes: arrived there.
    const row = panel.getByTestId(`arrival-${tonight!.id}`);
    await row.waitFor();
    expect((await page.getByTestId(`arrival-${tonight!.id}-arrive`).innerText()).trim()).toBe(text(header, 'today.reservations.arrive'));
    expect((await page.getByTestId(`arrival-${tonight!.id}-cancel`).innerText()).trim()).toBe(text(header, 'today.reservations.cancel'));
    await screenshot(page, `reservations-today-arrivals-${header}`);
    await page.getByTestId(`arrival-${tonight!.id}-arrive`).click();
    const arrive = page.getByTestId('arrive-dialog');
    await arrive.waitFor();
    await page.getByTestId('arrive-submit').click();
    await arrive.waitFor({ state: 'detached' });
    await panel.getByTestId(`arrived-${tonight!.id}`).waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await staysOf(guest)).map((s) => s.status)).toEqual(['in_house']);
    await screenshot(page, `reservations-today-arrived-${header}`);
  });
});
