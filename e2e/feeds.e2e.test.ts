import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDateTime, zonedToInstant } from '@console/shared';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { languageRuns } from './support-board';
import { closeSql, sql, text } from './support-stays';

/**
 * Calendar feeds (issue 20 §1, docs/calendar-feeds.md) in Chinese, English and Arabic: the test
 * serves a channel's iCal calendar itself (a node server on 127.0.0.1), a manager adds it for a
 * room on Room setup › Calendar feeds and reads it: the booking of next week becomes a reservation
 * the board shows; the channel moves it a day and the reservation follows; a calendar answering
 * 503 shows its error and changes nothing; an empty answer keeps the booking and asks for a
 * confirmation; a booking on a night the room is out of order is not imported, and the card names
 * the range. The room's export address answers an iCal text with the booking. Rooms CF-zh,
 * CF-en and CF-ar are this file's own.
 */

type Answer = { status: number; body: string };
/** What the channel's calendar answers, by path (one calendar per run). */
const answers = new Map<string, Answer>();
let calendar: http.Server;
let calendarUrl: string;
let browser: Browser;
let hotel: { id: number; timeZone: string; checkInTime: string; checkOutTime: string };

beforeAll(async () => {
  calendar = http.createServer((req, res) => {
    const answer = answers.get(req.url ?? '') ?? { status: 404, body: 'not found' };
    res.writeHead(answer.status, { 'content-type': 'text/calendar; charset=utf-8' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => calendar.listen(0, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${(calendar.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  [hotel] = (await sql<typeof hotel>(
    `SELECT h.id, h."timeZone", h."checkInTime", h."checkOutTime" FROM "Hotel" h JOIN "Room" r ON r."hotelId" = h.id WHERE r.name = '101' AND r."deletedAt" IS NULL LIMIT 1`,
  )) as [typeof hotel];
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => calendar?.close(resolve));
  await closeRedis();
  await closeSql();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', room: 'CF-zh' },
  { code: 'en', header: 'en', room: 'CF-en' },
  { code: 'Arabic', header: 'ar', room: 'CF-ar' },
] as const;

/** A clean room of this file, first on the board and in the room lists. */
async function ownRoom(name: string): Promise<number> {
  const [found] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [name]);
  if (found) return found.id;
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "updatedAt") VALUES ($1, $2, 0, 20000, now()) RETURNING id`,
    [hotel.id, name],
  );
  return room!.id;
}

const compact = (date: string) => date.replaceAll('-', '');
/** A channel's calendar (Airbnb's way: all-day dates, "Reserved", the code in the description). */
function ics(events: { uid: string; from: string; to: string; code: string }[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//e2e//channel calendar//EN', 'CALSCALE:GREGORIAN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `DTSTAMP:${compact(e.from)}T000000Z`,
      `DTSTART;VALUE=DATE:${compact(e.from)}`,
      `DTEND;VALUE=DATE:${compact(e.to)}`,
      `UID:${e.uid}`,
      'SUMMARY:Reserved',
      `DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/${e.code}\\nPhone Number (Last 4 Digits): 4321`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

const today = () => localDateTime(Date.now(), hotel.timeZone).slice(0, 10);
const checkIn = (date: string) => zonedToInstant(`${date}T${hotel.checkInTime}`, hotel.timeZone)!;
const checkOut = (date: string) => zonedToInstant(`${date}T${hotel.checkOutTime}`, hotel.timeZone)!;

function staysOfRoom(roomId: number) {
  return sql<{ id: number; status: string; checkInAt: Date; expectedCheckOutAt: Date }>(
    `SELECT id, status::text AS status, "checkInAt", "expectedCheckOutAt" FROM "Stay" WHERE "roomId" = $1 ORDER BY id`,
    [roomId],
  );
}

/** A short date and time as the board writes it (formatShortDateTime, in the interface language). */
const shortDateTime = (page: Page, header: string, at: Date) =>
  page.evaluate(
    ({ header, at, timeZone }) =>
      new Intl.DateTimeFormat(header, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(at)),
    { header, at: at.toISOString(), timeZone: hotel.timeZone },
  );

/** Waits until an element of the page shows exactly this text. */
const shows = (page: Page, selector: string, expected: string) =>
  page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent?.trim() === t, [selector, expected] as const, { timeout: 15_000 });

describe.each(languageRuns(RUNS, import.meta.url))('calendar feeds in $header', ({ code, header, room }) => {
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

  it(`adds a feed for ${room}, reads its booking into a reservation that follows the channel, shows a failing and an empty calendar, and exports the room`, async () => {
    const roomId = await ownRoom(room);
    const path = `/${room}.ics`;
    const label = `Airbnb ${room}`;
    const code = `HM${room.slice(-2).toUpperCase()}E2E20`;
    const from = addDays(today(), 7);
    const to = addDays(from, 2);
    answers.set(path, { status: 200, body: ics([{ uid: `${room}@airbnb.test`, from, to, code }]) });

    // Added for the room on Room setup › Calendar feeds.
    await page.goto(`${baseUrl()}/room/calendarFeeds`);
    await page.getByTestId('calendar-feeds-page').waitFor();
    await page.getByTestId('feed-add').click();
    const form = page.getByTestId('feed-form');
    await form.waitFor();
    await page.locator('#feed-target').selectOption(`room:${roomId}`);
    await page.locator('#feed-label').fill(label);
    await page.locator('#feed-url').fill(`${calendarUrl}${path}`);
    await screenshot(page, `feeds-form-${header}`);
    await page.getByTestId('feed-save').click();
    await form.waitFor({ state: 'detached' });
    const [feed] = await sql<{ id: number }>(`SELECT id FROM "CalendarFeed" WHERE "roomId" = $1`, [roomId]);
    expect(feed).toBeDefined();
    const card = page.getByTestId(`feed-${feed!.id}`);
    const cardSel = `[data-testid="feed-${feed!.id}"]`;
    await card.getByText(label, { exact: true }).waitFor();
    // Read as it is added: one event, one booking, no error.
    const readFine = async () => {
      await shows(page, `${cardSel} [data-testid="feed-state"]`, text(header, 'feeds.status.ok'));
      await shows(page, `${cardSel} [data-testid="feed-events"]`, '1');
      await shows(page, `${cardSel} [data-testid="feed-booked"]`, '1');
      expect(await card.getByTestId('feed-error').count()).toBe(0);
    };
    await readFine();
    // Read now: the same booking again makes nothing new.
    await card.getByTestId('feed-read-now').click();
    await page.getByText(text(header, 'feeds.readResult', { created: 0, moved: 0, cancelled: 0 })).waitFor();
    await readFine();
    await screenshot(page, `feeds-read-${header}`);
    const [stay] = await staysOfRoom(roomId);
    expect(stay).toMatchObject({ status: 'reserved' });
    expect(stay!.checkInAt.getTime()).toBe(checkIn(from).getTime());
    expect(stay!.expectedCheckOutAt.getTime()).toBe(checkOut(to).getTime());

    // The board shows the room reserved for those nights.
    const glance = async (inAt: string, outAt: string) => {
      await page.goto(`${baseUrl()}/room?search=${room}`);
      const reservation = page.getByTestId(`room-tile-${room}`).getByTestId('room-reservation');
      await reservation.waitFor();
      const expected = text(header, 'frontDesk.board.reservedFromTo', {
        from: await shortDateTime(page, header, checkIn(inAt)),
        to: await shortDateTime(page, header, checkOut(outAt)),
      });
      expect((await reservation.innerText()).trim()).toBe(expected);
      expect(await reservation.getAttribute('data-stay-id')).toBe(String(stay!.id));
    };
    await glance(from, to);
    await screenshot(page, `feeds-board-reserved-${header}`);

    // The channel moves the booking a day later: read again, the same reservation follows.
    const movedFrom = addDays(from, 1);
    const movedTo = addDays(to, 1);
    answers.set(path, { status: 200, body: ics([{ uid: `${room}@airbnb.test`, from: movedFrom, to: movedTo, code }]) });
    await page.goto(`${baseUrl()}/room/calendarFeeds`);
    await card.getByTestId('feed-read-now').click();
    await page.getByText(text(header, 'feeds.readResult', { created: 0, moved: 1, cancelled: 0 })).waitFor();
    const stays = await staysOfRoom(roomId);
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ id: stay!.id, status: 'reserved' });
    expect(stays[0]!.checkInAt.getTime()).toBe(checkIn(movedFrom).getTime());
    expect(stays[0]!.expectedCheckOutAt.getTime()).toBe(checkOut(movedTo).getTime());
    await glance(movedFrom, movedTo);

    // The room's own calendar, for the channels: its address answers the booking's nights, nothing of the guest.
    await page.goto(`${baseUrl()}/room/calendarFeeds`);
    await page.getByTestId('feed-export').locator('select').selectOption(String(roomId));
    const exportUrl = page.getByTestId('feed-export-url');
    await exportUrl.waitFor();
    const address = await exportUrl.inputValue();
    expect(address).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await screenshot(page, `feeds-export-${header}`);
    const exported = await fetch(address);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('text/calendar');
    const body = await exported.text();
    expect(body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(body).toContain(`DTSTART;VALUE=DATE:${compact(movedFrom)}\r\n`);
    expect(body).toContain(`DTEND;VALUE=DATE:${compact(movedTo)}\r\n`);
    expect(body).toContain('SUMMARY:Booked');
    expect(body).not.toContain(code);

    // The channel's calendar fails (503): the error is shown, the reservation is left as it is.
    answers.set(path, { status: 503, body: 'Service Unavailable' });
    await card.getByTestId('feed-read-now').click();
    await shows(page, `${cardSel} [data-testid="feed-error"]`, text(header, 'feeds.errors.http', { status: 503 }));
    await shows(page, `${cardSel} [data-testid="feed-state"]`, text(header, 'feeds.status.failed'));
    await screenshot(page, `feeds-failed-${header}`);
    expect((await staysOfRoom(roomId)).map((s) => s.status)).toEqual(['reserved']);

    // An empty calendar while the booking is still to come: kept, and a confirmation is asked for.
    answers.set(path, { status: 200, body: ics([]) });
    await card.getByTestId('feed-read-now').click();
    await shows(page, `${cardSel} [data-testid="feed-empty-pending"]`, text(header, 'feeds.emptyPending', { count: 1 }));
    await shows(page, `${cardSel} [data-testid="feed-state"]`, text(header, 'feeds.status.empty'));
    expect(await card.getByTestId('feed-error').count()).toBe(0);
    await card.getByTestId('feed-confirm-empty').waitFor();
    await screenshot(page, `feeds-empty-${header}`);
    expect((await staysOfRoom(roomId)).map((s) => s.status)).toEqual(['reserved']);

    // Confirmed: the booking really was cancelled, so is the reservation.
    await card.getByTestId('feed-confirm-empty').click();
    await shows(page, `${cardSel} [data-testid="feed-state"]`, text(header, 'feeds.status.ok'));
    await shows(page, `${cardSel} [data-testid="feed-booked"]`, '0');
    expect((await staysOfRoom(roomId)).map((s) => s.status)).toEqual(['ended']);

    // The room is out of order on a night of a new booking: not imported, and the card says why (the range's room and reason).
    const broken = addDays(today(), 11);
    await sql(
      `INSERT INTO "RoomOutOfOrder" ("hotelId", "roomId", kind, "startDate", "endDate", reason, "updatedAt")
       VALUES ($1, $2, 'out_of_order', $3::date, $3::date, 'Leaking pipe', now()) ON CONFLICT DO NOTHING`,
      [hotel.id, roomId, broken],
    );
    const blockedCode = `HM${room.slice(-2).toUpperCase()}OOO20`;
    answers.set(path, { status: 200, body: ics([{ uid: `${room}-2@airbnb.test`, from: addDays(broken, -1), to: addDays(broken, 1), code: blockedCode }]) });
    await card.getByTestId('feed-read-now').click();
    const conflict = card.getByTestId('feed-conflicts').locator('li', { hasText: blockedCode });
    await conflict.waitFor();
    // The language's sentence with the booking, the room and the reason in it, whatever the dates' format.
    const sentence = text(header, 'feeds.conflictOutOfOrder', { reference: '§R', start: '§D', end: '§D', room: '§M', from: '§D', to: '§D', reason: '§X' })
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll('§D', '.+')
      .replace('§R', blockedCode)
      .replace('§M', room)
      .replace('§X', 'Leaking pipe');
    expect((await conflict.innerText()).trim()).toMatch(new RegExp(`^${sentence}$`));
    await screenshot(page, `feeds-out-of-order-${header}`);
    expect((await staysOfRoom(roomId)).map((s) => s.status)).toEqual(['ended']);
  });
});
