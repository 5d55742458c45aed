/**
 * Readable automation in the audit log (issue 27 §11): what the automation does is listed in words
 * of the reader's language, by the real writers (the access rules' `issue` job, a calendar feed's
 * read by its job, the manager's rules and feeds): who acted ("Automation (access rules)",
 * "Calendar feed Airbnb · Room 109"), what ("Door access issued by rule"), on what ("Stay of room 109
 * (Ana Silva)", "Access rule of the hotel"), no address for a job; the same in the export; and a
 * feed or a group deleted since keeps its name in the entries about it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, type TLanguageHeader } from '@console/shared';
import { jobContext } from '../../context';
import { readFeedAsJob } from '../../jobs/feeds.job';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { issueOnTime } from '../access-rules/engine';
import { listAuditLogAfter } from '../export/audit-source';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let server: Server;
let calendar = '';

beforeAll(async () => {
  // The channel's calendar is served by the test on 127.0.0.1.
  ctx = await createTestContext({ locks: null, env: { FEED_PRIVATE_ADDRESSES: 'true' } });
  api = trpcClient(ctx.app, { ip: '203.0.113.20' });
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(calendar));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

async function data<T>(promise: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const result = await promise;
  if (result.data === undefined) throw new Error(JSON.stringify(result.error));
  return result.data;
}

const TZ = 'Europe/Lisbon';
const day = (n: number) => addDays(localDate(new Date(), TZ), n).replaceAll('-', '');
const ics = (bookings: { uid: string; guest: string; from: number; to: number }[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//e2e//audit//EN',
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

const RULE = { enabled: true, issueDaysBefore: 1, minutesBeforeCheckIn: 240, minutesAfterCheckOut: 30, codeRule: 'random' as const };

describe('the automation in the audit log', () => {
  it('names who acted, what and on what in words of the reader, for the access rules, a feed read by its job and the manager', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' } });
    const {
      rooms: [room],
    } = await createRooms(ctx.deps, h.hotel.id, ['109']);
    const token = { token: h.ownerToken };
    const owner = await ctx.deps.prisma.account.findUniqueOrThrow({ where: { id: h.owner.id } });

    // The manager: the hotel's access rule, a group's own rule, a feed for room 109 (read at once, as the manager).
    await data(api.mutation('accessRule.set', RULE, token));
    const group = await data(api.mutation('roomGroup.create', { name: 'Sea view', sort: 1 }, token));
    await data(api.mutation('accessRule.set', { ...RULE, groupId: group.id }, token));
    calendar = ics([{ uid: 'ana@airbnb.com', guest: 'Ana Silva', from: 1, to: 3 }]);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/airbnb.ics`;
    const feed = await data(api.mutation('feed.add', { roomId: room!.id, label: 'Airbnb', url }, token));
    const ana = await ctx.deps.prisma.stay.findFirstOrThrow({ where: { hotelId: h.hotel.id, guests: { some: { name: 'Ana Silva' } } } });

    // The automation: the access rules' `issue` job gives Ana her code; the feed's job reads a new booking.
    expect(await issueOnTime(jobContext(ctx.deps, 'stay.issue', 'job:issue'), { stayId: ana.id, version: ana.version }, ana.checkInAt)).toBe('issued');
    calendar = ics([
      { uid: 'ana@airbnb.com', guest: 'Ana Silva', from: 1, to: 3 },
      { uid: 'ben@airbnb.com', guest: 'Ben Okafor', from: 5, to: 7 },
    ]);
    expect(await readFeedAsJob(ctx.deps, { hotelId: h.hotel.id, feedId: feed.id }, 'job:feed')).toMatchObject({ ok: true, created: 1 });
    // Entries written before this version: the job's address was `job`; a job and an action this version does not know.
    await ctx.deps.prisma.auditLog.createMany({
      data: [
        {
          hotelId: h.hotel.id,
          actorType: 'job',
          actorJob: 'stay.sweep',
          action: 'stay.expire',
          entityType: 'stay',
          entityId: String(ana.id),
          ip: 'job',
          channel: 'job',
        },
        { hotelId: h.hotel.id, actorType: 'job', actorJob: 'nightly.thing', action: 'nightly.thing', channel: 'job' },
      ],
    });

    // Later the manager deletes the feed and the group: their entries keep their names.
    await data(api.mutation('feed.delete', { feedId: feed.id, confirm: true }, token));
    await data(api.mutation('roomGroup.delete', { id: group.id }, token));

    const page = async (lang: TLanguageHeader) => (await data(api.query('audit.list', { pageSize: 50 }, { ...token, lang }))).items;
    const one = (items: Awaited<ReturnType<typeof page>>, action: string, actorType?: string) => {
      const found = items.filter((i) => i.action === action && (actorType === undefined || i.actor.type === actorType));
      expect(found, action).toHaveLength(1);
      return found[0]!;
    };
    // Newest first: the group's rule was set after the hotel's.
    const accessRules = (items: Awaited<ReturnType<typeof page>>) => items.filter((i) => i.action === 'accessRule.set').map((i) => i.target.label);

    const en = await page('en');
    expect(one(en, 'stay.accessIssue')).toMatchObject({
      actor: { type: 'job', job: 'stay.issue', name: 'Automation (access rules)', accountId: null },
      actionLabel: 'Door access issued by rule',
      target: { type: 'Stay', id: String(ana.id), label: 'Stay of room 109 (Ana Silva)' },
      channel: 'job',
      ip: null,
    });
    expect(one(en, 'stay.reserve', 'job')).toMatchObject({
      actor: { job: 'feed.read', name: 'Calendar feed Airbnb · Room 109' },
      actionLabel: 'Reservation made',
      target: { label: 'Stay of room 109 (Ben Okafor)' },
      ip: null,
    });
    expect(one(en, 'stay.reserve', 'account')).toMatchObject({
      actor: { name: owner.nickname },
      ip: '203.0.113.20',
      target: { label: 'Stay of room 109 (Ana Silva)' },
    });
    expect(accessRules(en)).toEqual(['Access rule · group Sea view', 'Access rule of the hotel']);
    expect(one(en, 'feed.add')).toMatchObject({
      actionLabel: 'Calendar feed added',
      target: { type: 'CalendarFeed', label: 'Calendar feed Airbnb · Room 109' },
    });
    expect(one(en, 'feed.delete').target.label).toBe('Calendar feed Airbnb · Room 109');
    expect(one(en, 'roomGroup.create').target.label).toBe('Room group Sea view');
    expect(one(en, 'stay.expire')).toMatchObject({
      actor: { name: 'Automation (stay times)' },
      actionLabel: 'Check-out time passed',
      ip: null,
      target: { label: 'Stay of room 109 (Ana Silva)' },
    });
    expect(one(en, 'nightly.thing')).toMatchObject({ actor: { name: 'Automation' }, actionLabel: 'nightly.thing', target: { label: null } });
    // No code is shown for anything the server wrote.
    for (const item of en.filter((i) => i.action !== 'nightly.thing')) {
      expect(item.actionLabel, item.action).not.toBe(item.action);
      if (item.actor.type === 'job') expect(item.actor.name, item.action).not.toBe(item.actor.job);
      expect(item.target.label ?? '', item.action).not.toMatch(/^[A-Z][A-Za-z]+ #|CalendarFeed|AccessRule|#hotel/);
    }

    const zh = await page('zh-CN');
    expect(one(zh, 'stay.accessIssue')).toMatchObject({
      actor: { name: '自动化（开门规则）' },
      actionLabel: '按规则发放开门权限',
      target: { label: '房间 109 的入住（Ana Silva）' },
      ip: null,
    });
    expect(one(zh, 'stay.reserve', 'job')).toMatchObject({ actor: { name: '同步日历 Airbnb · 房间 109' }, actionLabel: '新建预订' });
    expect(accessRules(zh)).toEqual(['开门规则 · 分组 Sea view', '全酒店开门规则']);
    expect(one(zh, 'feed.add').target.label).toBe('同步日历 Airbnb · 房间 109');
    expect(one(zh, 'stay.expire').actor.name).toBe('自动化（入住时间）');

    // Right to left: each name isolated, so "Airbnb" and "109" keep their places in the Arabic sentence.
    const ar = await page('ar');
    expect(one(ar, 'stay.reserve', 'job').actor.name).toBe('تقويم القناة \u2068Airbnb\u2069 · الغرفة \u2068109\u2069');
    expect(one(ar, 'stay.accessIssue')).toMatchObject({ actor: { name: 'الأتمتة (قواعد الدخول)' }, actionLabel: 'إصدار صلاحية الدخول وفق القاعدة' });

    // The export names them the same, in its own language, as plain text in its cells.
    const exporter = async (lang: TLanguageHeader) => listAuditLogAfter(await actorContext(ctx.deps, h.ownerToken, testMeta({ lang })), {}, null, 50);
    const zhExport = await exporter('zh-CN');
    expect(one(zhExport, 'stay.accessIssue')).toMatchObject({
      actor: { name: '自动化（开门规则）' },
      actionLabel: '按规则发放开门权限',
      target: { label: '房间 109 的入住（Ana Silva）' },
    });
    expect(one(await exporter('ar'), 'stay.reserve', 'job').actor.name).toBe('تقويم القناة Airbnb · الغرفة 109');
  });
});
