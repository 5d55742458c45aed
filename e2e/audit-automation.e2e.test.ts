import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { createQueues, type Queues } from '../apps/server/src/jobs/queues';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, server, settle, signIn } from './support';
import { api, languageRuns, text, withPage } from './support-board';
import { closeSql, sql } from './support-stays';

/**
 * Readable automation in the audit log (issue 27 §11) in Chinese, English and Arabic. Each language
 * makes a room group of its own with an access rule on (its rooms only: the demo hotel's rule stays
 * off for the other browser tests) and a room in it, and adds a channel's calendar for the room
 * (served by this test on 127.0.0.1) with one booking; the rule's `issue` job gives that guest her
 * code, and a read of the calendar by its own job (queued as the feed scan queues it) makes the
 * second booking's reservation. The audit log, filtered to background jobs, then says who acted in
 * words ("Automation (access rules)", "Calendar feed Airbnb · Room AU-en-109"), what ("Door access
 * issued by rule", "Reservation made"), on what ("Stay of room AU-en-109 (Ana Silva)"), and no
 * address; the entry's dialog shows the action's code beside its words.
 */

let browser: Browser;
let queues: Queues;
let channel: http.Server;
const calendars = new Map<string, string>();

beforeAll(async () => {
  browser = await launchBrowser();
  channel = http.createServer((req, res) => {
    const body = calendars.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => channel.listen(0, '127.0.0.1', resolve));
  // The console's own queues (its Redis prefix), to queue a feed's read as its scan does.
  queues = createQueues(inject('redisUrl'), server().redisPrefix);
});
afterAll(async () => {
  await browser?.close();
  await queues?.close();
  await closeSql();
  await closeRedis();
  await new Promise((resolve) => channel?.close(resolve));
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', guests: ['林小雨', '王海'] },
  { code: 'en', header: 'en', guests: ['Ana Silva', 'Ben Okafor'] },
  { code: 'Arabic', header: 'ar', guests: ['سلمى ناصر', 'خالد عمر'] },
] as const;

const TZ = 'Asia/Shanghai';
const day = (n: number) => addDays(localDate(new Date(), TZ), n).replaceAll('-', '');
const ics = (bookings: { uid: string; guest: string; from: number; to: number }[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//e2e//audit-automation//EN',
    ...bookings.flatMap((b) => [
      'BEGIN:VEVENT',
      'DTSTAMP:20261101T000000Z',
      `DTSTART;VALUE=DATE:${day(b.from)}`,
      `DTEND;VALUE=DATE:${day(b.to)}`,
      `UID:${b.uid}`,
      `SUMMARY:${b.guest}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

type AuditPage = { items: { id: number; action: string; target: { id: string | null } }[] };
/** A cell's text without the isolation marks a right-to-left page puts around names. */
const plain = async (locator: Locator) => (await locator.innerText()).replace(/[\u2068\u2069]/g, '').trim();
/** Its first line (a name, beneath which the kind of actor or the area is said). */
const firstLine = async (locator: Locator) => (await plain(locator)).split('\n')[0]!.trim();

describe.each(languageRuns(RUNS, import.meta.url))('the automation in the audit log in $header', ({ code, header, guests }) => {
  it('says who acted, what and on what in words, for the access rules and a calendar read by its job', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const room = `AU-${code}-109`;
      const group = await api<{ id: number }>(page, 'roomGroup.create', { name: `Sea view ${code}`, sort: 90 }, 'mutation');
      const { id: roomId } = await api<{ id: number }>(page, 'room.create', { name: room, groupId: group.id }, 'mutation');
      await api(
        page,
        'accessRule.set',
        { groupId: group.id, enabled: true, issueDaysBefore: 2, minutesBeforeCheckIn: 240, minutesAfterCheckOut: 30, codeRule: 'random' },
        'mutation',
      );
      const path = `/audit-${code}.ics`;
      calendars.set(path, ics([{ uid: `first-${code}@airbnb.com`, guest: guests[0], from: 1, to: 3 }]));
      const url = `http://127.0.0.1:${(channel.address() as AddressInfo).port}${path}`;
      const feed = await api<{ id: number }>(page, 'feed.add', { roomId, label: 'Airbnb', url }, 'mutation');
      const [hotel] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE id = $1`, [roomId]);
      const stayOf = async (guest: string) =>
        (
          await sql<{ id: number }>(`SELECT s.id FROM "Stay" s JOIN "StayGuest" g ON g."stayId" = s.id WHERE s."roomId" = $1 AND g.name = $2`, [roomId, guest])
        )[0]?.id;
      const first = await stayOf(guests[0]);
      expect(first).toBeDefined();

      // The channel gets a second booking; the feed's job reads it (as the scan queues it).
      calendars.set(
        path,
        ics([
          { uid: `first-${code}@airbnb.com`, guest: guests[0], from: 1, to: 3 },
          { uid: `second-${code}@airbnb.com`, guest: guests[1], from: 5, to: 7 },
        ]),
      );
      await queues.feeds.add('read', { hotelId: hotel!.hotelId, feedId: feed.id }, { jobId: `e2e-audit-${code}-${Date.now()}` });
      await expect.poll(() => stayOf(guests[1]), { timeout: 30_000 }).toBeDefined();
      const second = (await stayOf(guests[1]))!;
      // The rule's `issue` job gives the first guest her code: its time (two days and four hours before
      // tomorrow's check-in) has passed at any hour of the hotel's day.
      const jobEntries = async () => (await api<AuditPage>(page, 'audit.list', { actorType: 'job', pageSize: 50 })).items;
      await expect
        .poll(async () => (await jobEntries()).some((i) => i.action === 'stay.accessIssue' && i.target.id === String(first)), { timeout: 30_000 })
        .toBe(true);

      await page.goto(`${baseUrl()}/auditLog?actorType=job`);
      await page.getByTestId('audit-table').waitFor();
      const entries = await jobEntries();
      const issued = entries.find((i) => i.action === 'stay.accessIssue' && i.target.id === String(first))!;
      const reserved = entries.find((i) => i.action === 'stay.reserve' && i.target.id === String(second))!;
      const issuedRow = page.getByTestId(`audit-${issued.id}`);
      const reservedRow = page.getByTestId(`audit-${reserved.id}`);
      await issuedRow.waitFor();

      // Who: the automation, in words; never the job's code.
      expect(await firstLine(issuedRow.getByTestId('audit-actor'))).toBe(text(header, 'auditLog.automation.accessRules'));
      expect(await firstLine(reservedRow.getByTestId('audit-actor'))).toBe(text(header, 'auditLog.named.feedRoom', { feed: 'Airbnb', room }));
      // What: the action's label, its area beneath.
      expect(await firstLine(issuedRow.getByTestId('audit-action'))).toBe(text(header, 'auditLog.actions.stay.accessIssue'));
      expect(await firstLine(reservedRow.getByTestId('audit-action'))).toBe(text(header, 'auditLog.actions.stay.reserve'));
      // On what: the stay by its room and guest.
      expect(await plain(issuedRow.getByTestId('audit-target'))).toBe(text(header, 'auditLog.named.stayGuest', { room, guest: guests[0] }));
      expect(await plain(reservedRow.getByTestId('audit-target'))).toBe(text(header, 'auditLog.named.stayGuest', { room, guest: guests[1] }));
      // No address for a job, and no code anywhere in the row.
      for (const row of [issuedRow, reservedRow]) {
        const cells = await row.getByRole('cell').allInnerTexts();
        expect(cells[5]?.trim()).toBe('—');
        expect(cells.join(' ')).not.toMatch(/stay\.(issue|accessIssue|reserve)|feed\.read/);
      }
      expect(await page.locator('html').getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      await issuedRow.scrollIntoViewIfNeeded();
      await settle(page);
      await screenshot(page, `audit-automation-${header}`);

      // The entry's dialog: the same words, and the action's code for whoever needs it.
      await issuedRow.getByTestId('audit-details').click();
      const dialog = page.getByTestId('audit-entry');
      await dialog.waitFor();
      await settle(page);
      expect(await firstLine(dialog.getByTestId('audit-actor'))).toBe(text(header, 'auditLog.automation.accessRules'));
      expect(await plain(dialog.getByTestId('audit-action-code'))).toBe('stay.accessIssue');
      await screenshot(page, `audit-automation-entry-${header}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Put back: the reservations cancelled (their codes withdrawn), the feed and the group's rule gone.
      for (const stayId of [first!, second]) await api(page, 'stay.cancelReservation', { stayId, reason: 'entered_by_mistake' }, 'mutation');
      await api(page, 'feed.delete', { feedId: feed.id, confirm: true }, 'mutation');
      await api(page, 'accessRule.reset', { groupId: group.id }, 'mutation');
    });
  });
});
