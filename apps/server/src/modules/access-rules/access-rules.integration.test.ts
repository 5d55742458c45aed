import { randomUUID } from 'node:crypto';
import type { TAuditJob } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext, type Actor, type AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { afterCredentialChange } from '../credentials/delivery';
import { createPassword } from '../credentials/password.service';
import { cancelChannelReservation, createReservation, moveReservationDates, reserveFromChannel } from '../stays/reservation';
import { scheduleStayJobs } from '../stays/stay-schedule';
import { findStay, toStayDto } from '../base/stay-dto';
import { getAccessRule, listAccessRules, setAccessRule } from './access-rule.service';
import { ingestLockRecords } from '../locks/records';
import { issueOnTime } from './engine';
import { sweepAccessIssues } from './access-sweep';
import { fixArrivalAccess, giveOfflineCodes } from './offline-codes';
import { getToday } from '../today/today.service';
import { listRooms } from '../room/room-list';
import { member } from '../../test/ledger-kit';
import { refreshLockStatus } from '../locks/lock-status';
import { renewUnusedGeneratedCodes } from './first-use';
import { arriveOnTime, expireOnTime, lapseOnTime, sweepStays } from '../stays/transitions';
import { checkOut } from '../stays/check-out';
import { sendCard } from '../cards/card-send';
import { trpcClient } from '../../test/trpc-client';
import { loadMessageFacts, renderMessage } from '../messages/compose';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * Access rules (issue 20 §2) against the real TTLock adapter and apps/lock-sim, with the real
 * workers, Redis and database: a channel reservation gets its code at the rule's time (the `issue`
 * job, its moment read from the queue and its handler run at that moment), the code rule's
 * outcome is stated, moved dates carry the margins, a cancellation takes the code off and the
 * simulated door refuses it.
 */

let { sim, client, ctx, workers } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function hotelWithRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`R${randomUUID().slice(0, 6)}`]);
  const room = rooms[0]!;
  const created = await client.lockWithGateway({});
  await pairSimLock(ctx.deps, h.hotel.id, room.id, created.lockId);
  const owner = (await actorContext(ctx.deps, h.ownerToken)) as Staff;
  const staff = (await actorContext(ctx.deps, h.staffToken)) as Staff;
  return { ...h, room, lockId: String(created.lockId), gatewayId: String(created.gatewayId), owner, staff };
}

/** A booking of a channel's calendar, as the feed's reader makes it: the reservation, its booking row, its jobs. */
async function channelStay(
  h: Awaited<ReturnType<typeof hotelWithRoom>>,
  checkInAt: Date,
  expectedCheckOutAt: Date,
  mobile: string | null,
  options: { schedule?: boolean; room?: { id: number } } = {},
) {
  const room = options.room ?? h.room;
  const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
  const feed = await ctx.deps.prisma.calendarFeed.create({
    data: { hotelId: h.hotel.id, roomId: room.id, label: 'Airbnb', url: 'http://127.0.0.1:9/rules.ics' },
  });
  const made = await transaction(ctx.deps, async (tx) => {
    const r = await reserveFromChannel(tx, job, {
      hotelId: h.hotel.id,
      timeZone: h.hotel.timeZone,
      roomIds: [room.id],
      checkInAt,
      expectedCheckOutAt,
      guestName: 'Ana Silva',
      mobile,
      remark: 'Airbnb',
    });
    await tx.calendarFeedBooking.create({
      data: {
        hotelId: h.hotel.id,
        feedId: feed.id,
        uid: randomUUID(),
        stayId: r.stay!.id,
        state: 'booked',
        reference: 'HM123',
        guestName: 'Ana Silva',
        phone: mobile,
        startsAt: checkInAt,
        endsAt: expectedCheckOutAt,
      },
    });
    return r.stay!;
  });
  if (options.schedule !== false) await scheduleStayJobs(ctx.deps, made, h.hotel.timeZone);
  return made;
}

const RULE = {
  enabled: true,
  issueDaysBefore: 2,
  minutesBeforeCheckIn: 180,
  minutesAfterCheckOut: 60,
  codeRule: 'phone_last4',
  phoneFallback: 'random',
  codeType: 'custom',
} as const;

async function issueJob(stayId: number, version = 0) {
  const jobs = await ctx.deps.queues.stay.getJobs(['delayed', 'waiting', 'active', 'completed', 'prioritized']);
  return jobs.find((j) => j.name === 'issue' && j.data.stayId === stayId && j.data.version === version);
}

const passwordsOf = (stayId: number) => ctx.deps.prisma.lockPassword.findMany({ where: { stayId }, orderBy: { id: 'asc' } });
const settledPasswords = (stayId: number) =>
  expect.poll(async () => (await passwordsOf(stayId)).map((p) => p.deliveryState), { timeout: 20_000 }).not.toContain('pending');
const use = (lockId: string, passcode: string) => client.control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { passcode });

describe('access rules issue a reservation’s credentials by themselves', () => {
  it('a channel reservation gets the guest’s phone digits on the lock at the rule’s time, and the door opens with them', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, RULE);
    const mobile = uniqueMobile();
    const digits = mobile.slice(-4);

    // Far ahead: the job waits for the rule's moment (2 days and 3 hours before the check-in).
    const later = await channelStay(h, new Date(Date.now() + 5 * DAY), new Date(Date.now() + 6 * DAY), uniqueMobile());
    const job = await issueJob(later.id);
    const issueAt = later.checkInAt.getTime() - 2 * DAY - 3 * HOUR;
    expect(Math.abs(job!.timestamp + job!.delay - issueAt)).toBeLessThan(5_000);
    // Before its moment the job issues nothing; at its moment it does.
    expect(await issueOnTime(jobContext(ctx.deps, 'stay.issue', 'early'), job!.data, new Date(issueAt - HOUR))).toBe('early');
    expect(await passwordsOf(later.id)).toEqual([]);
    expect(await issueOnTime(jobContext(ctx.deps, 'stay.issue', 'on-time'), job!.data, new Date(issueAt))).toBe('issued');
    expect(await passwordsOf(later.id)).toHaveLength(1);

    // Soon: its moment has passed, the job runs at once; valid from 3 hours before the check-in (now included).
    const soon = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    await expect.poll(async () => (await passwordsOf(soon.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(soon.id);
    const [p] = await passwordsOf(soon.id);
    expect(p).toMatchObject({ kind: 'custom', code: digits, deliveryState: 'on_lock' });
    expect(p!.validFrom.getTime()).toBe(Math.floor((soon.checkInAt.getTime() - 3 * HOUR) / 60_000) * 60_000);
    expect(p!.validUntil!.getTime()).toBe(Math.floor((soon.expectedCheckOutAt.getTime() + HOUR) / 60_000) * 60_000);
    expect(await use(h.lockId, digits)).toMatchObject({ opened: true });
    const stay = toStayDto(await findStay(h.staff, soon.id), new Date());
    expect(stay).toMatchObject({ accessOutcome: 'as_rule' });
    expect(stay.accessIssuedAt).not.toBeNull();
    // Twice is once: the job again (a retry, a restart) adds nothing.
    expect(await issueOnTime(jobContext(ctx.deps, 'stay.issue', 'again'), { stayId: soon.id, version: soon.version })).toBe('stale');
    expect(await passwordsOf(soon.id)).toHaveLength(1);
  });

  it('states what it did when the phone’s digits are already a code on the lock, or the phone is missing', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, RULE);
    const mobile = uniqueMobile();
    const digits = mobile.replace(/\D/g, '').slice(-4);
    // Someone's live code on the lock already has those digits.
    const other = await createPassword(h.staff, { roomId: h.room.id, kind: 'custom', code: `${digits}77`.slice(0, 6), holderName: 'Cleaner' });
    await ctx.deps.prisma.lockPassword.update({ where: { id: other.id }, data: { code: digits } });
    const inUse = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: inUse.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('phone_in_use_random');
    const [random] = await passwordsOf(inUse.id);
    expect(random).toMatchObject({ kind: 'custom' });
    expect(random!.code).not.toBe(digits);
    expect(random!.code).toMatch(/^\d{6}$/);
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.accessIssue', entityId: String(inUse.id) } });
    expect(audit?.after).toMatchObject({ outcome: 'phone_in_use_random' });

    // Missing phone, and the rule says "nothing": nothing issued, and said so.
    await setAccessRule(h.owner, { ...RULE, phoneFallback: 'none' });
    const noPhone = await channelStay(h, new Date(Date.now() + 30 * HOUR), new Date(Date.now() + 50 * HOUR), null);
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: noPhone.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('phone_missing_none');
    expect(await passwordsOf(noPhone.id)).toEqual([]);
    expect(toStayDto(await findStay(h.staff, noPhone.id), new Date())).toMatchObject({ accessOutcome: 'phone_missing_none' });
  });

  it('checks the phone’s digits against the lock’s code policy before promising them: too simple runs the fallback, said to the desk, the audit and the guest', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, RULE);
    // +33 6 12 34 56 78: its last four, 5678, are a run the lock cloud refuses (TTLock -2032).
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), '+33612345678');
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('phone_too_simple_random');
    await settledPasswords(stay.id);
    const [random] = await passwordsOf(stay.id);
    expect(random).toMatchObject({ kind: 'custom', deliveryState: 'on_lock' });
    expect(random!.code).not.toBe('5678');
    // The fallback's code is one the lock took: it opens the simulated door; the phone's digits never reached it.
    expect(await use(h.lockId, random!.code!)).toMatchObject({ opened: true });
    expect(await use(h.lockId, '5678')).toMatchObject({ opened: false });
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.accessIssue', entityId: String(stay.id) } });
    expect(audit?.after).toMatchObject({ outcome: 'phone_too_simple_random' });
    expect(toStayDto(await findStay(h.staff, stay.id), new Date())).toMatchObject({ accessOutcome: 'phone_too_simple_random' });
    // The guest's message says why the code is not their phone's digits, in the message's language.
    const facts = (await loadMessageFacts(ctx.deps, h.hotel.id, stay.id, random!.id))!;
    const en = await renderMessage(ctx.deps, h.hotel.id, 'sms', 'en', facts);
    expect(en.body).toContain(random!.code!);
    expect(en.body).toContain('too simple for the door lock');
    expect((await renderMessage(ctx.deps, h.hotel.id, 'sms', 'zh-CN', facts)).body).toContain('过于简单');

    // Six digits ...123456 and "nothing" as the fallback: nothing issued, and said so.
    await setAccessRule(h.owner, { ...RULE, codeRule: 'phone_last6', phoneFallback: 'none' });
    const none = await channelStay(h, new Date(Date.now() + 30 * HOUR), new Date(Date.now() + 50 * HOUR), '+8613900123456');
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: none.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('phone_too_simple_none');
    expect(await passwordsOf(none.id)).toEqual([]);

    // The desk is held to the same policy: a too simple code is refused before anything is written.
    await expect(createPassword(h.staff, { roomId: h.room.id, kind: 'custom', code: '123456', holderName: 'Desk' })).rejects.toThrow(/code_too_simple/);
    await expect(createPassword(h.staff, { roomId: h.room.id, kind: 'custom', code: '890123', holderName: 'Desk' })).rejects.toThrow(/code_too_simple/);
  });

  it('gives an over-the-air code when the lock holds all the custom codes it can, and counts no ended or withdrawn code among them', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    const row = (i: number, deliveryState: 'on_lock' | 'removed' | 'failed') => ({
      hotelId: h.hotel.id,
      roomId: h.room.id,
      kind: 'custom' as const,
      holderName: `Filler ${i}`,
      code: String(300_000 + i * 7),
      validFrom: new Date(Date.now() - DAY),
      validUntil: new Date(Date.now() + 30 * DAY),
      deliveryState,
    });
    // 249 live and many withdrawn or failed: one place is left.
    await ctx.deps.prisma.lockPassword.createMany({
      data: [...Array.from({ length: 249 }, (_, i) => row(i, 'on_lock')), ...Array.from({ length: 40 }, (_, i) => row(1000 + i, i % 2 ? 'removed' : 'failed'))],
    });
    const first = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: first.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('as_rule');
    expect((await passwordsOf(first.id))[0]).toMatchObject({ kind: 'custom' });
    // Now 250 are live: the next guest gets a code the cloud generates, which takes no place among them.
    const second = await channelStay(h, new Date(Date.now() + 30 * HOUR), new Date(Date.now() + 50 * HOUR), uniqueMobile());
    await expect
      .poll(async () => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: second.id } })).accessOutcome, { timeout: 20_000 })
      .toBe('lock_full_generated');
    expect((await passwordsOf(second.id))[0]).toMatchObject({ kind: 'air' });
  });

  it('gives an offline code that opens the door with the gateway down when the custom code is not on the lock in time, and withdraws the custom one', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', offlineCodeMinutes: 180 });
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: false });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 6 * HOUR), uniqueMobile());
    const later = await channelStay(h, new Date(Date.now() + 10 * HOUR), new Date(Date.now() + 12 * HOUR), uniqueMobile());
    // The gateway is down: the custom codes cannot reach the lock.
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['failed']);
    const [custom] = await passwordsOf(stay.id);
    expect(custom).toMatchObject({ kind: 'custom', lastError: 'gateway_offline' });

    const sweep = jobContext(ctx.deps, 'stay.sweep', randomUUID());
    // Three hours before its check-in the first gets an offline code; the one arriving in ten hours not yet.
    expect(await giveOfflineCodes(sweep, new Date(), { hotelId: h.hotel.id })).toBe(1);
    await expect.poll(async () => (await passwordsOf(stay.id)).find((p) => p.offline)?.deliveryState, { timeout: 20_000 }).toBe('on_lock');
    const offline = (await passwordsOf(stay.id)).find((p) => p.offline)!;
    expect(offline).toMatchObject({ kind: 'air', stayId: stay.id });
    // The lock knows it without its gateway: the door opens with it while the gateway is still down.
    expect(await use(h.lockId, offline.code!)).toMatchObject({ opened: true });
    // The custom code is withdrawn: the guest never holds two codes.
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: custom!.id } })).deliveryState, { timeout: 20_000 })
      .toBe('removed');
    expect(toStayDto(await findStay(h.staff, stay.id), new Date()).offlineCode).toMatchObject({ reason: 'gateway_offline' });
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.offlineCode', entityId: String(stay.id) } });
    expect(audit?.after).toMatchObject({ reason: 'gateway_offline', withdrawn: 1 });
    expect((await passwordsOf(later.id)).some((p) => p.offline)).toBe(false);
    // Once: the sweep again gives nothing more; the later stay gets its own when its time comes.
    expect(await giveOfflineCodes(sweep, new Date(), { hotelId: h.hotel.id })).toBe(0);
    expect(await giveOfflineCodes(sweep, new Date(Date.now() + 8 * HOUR), { hotelId: h.hotel.id })).toBe(1);
    // The guest is told the offline code as of any code the lock confirmed.
    await expect.poll(() => ctx.deps.prisma.guestMessage.count({ where: { passwordId: offline.id } }), { timeout: 20_000 }).toBeGreaterThan(0);

    // Cancelled while the gateway is still down: the offline code cannot be taken off; the desk is told until when it works.
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    expect(await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId: stay.id, note: 'gone' }))).toBe(true);
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: offline.id } })).deliveryState, { timeout: 20_000 })
      .toBe('remove_failed');
    expect(toStayDto(await findStay(h.staff, stay.id), new Date()).offlineCode).toMatchObject({ leftUntil: offline.validUntil!.toISOString() });
    expect(await use(h.lockId, offline.code!)).toMatchObject({ opened: true });
    // The gateway answers again: the lock's status check takes the offline code off, and the door refuses it.
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: true });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: offline.id } })).deliveryState, { timeout: 20_000 })
      .toBe('removed');
    expect(await use(h.lockId, offline.code!)).toMatchObject({ opened: false });
    expect(toStayDto(await findStay(h.staff, stay.id), new Date()).offlineCode).toMatchObject({ leftUntil: null });
  });

  it('gives no offline code to a lock that takes none (a keypad of chosen codes only): the desk sees the arrival, and "fix now" sends its code again', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', offlineCodeMinutes: 180 });
    // As an import leaves a lock whose platform computes no offline code for it (issue 38).
    await ctx.deps.prisma.lock.updateMany({ where: { hotelId: h.hotel.id }, data: { offlinePasscodes: false } });
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: false });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 6 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['failed']);
    expect(await giveOfflineCodes(jobContext(ctx.deps, 'stay.sweep', randomUUID()), new Date(), { hotelId: h.hotel.id })).toBe(0);
    expect((await getToday(h.staff)).notReady).toMatchObject({ total: 1, stays: [{ stayId: stay.id, reason: 'gateway_offline' }] });
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: true });
    expect((await fixArrivalAccess(h.staff, { stayId: stay.id })).fix).toBe('retried');
    expect((await passwordsOf(stay.id)).some((p) => p.offline)).toBe(false);
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['on_lock']);
  });

  it('names an arrival whose key is not on the lock on Today and its tile, and "fix now" gives it an offline code; another hotel or room finds nothing', async () => {
    const h = await hotelWithRoom();
    // Offline codes never by themselves: the desk sees the arrival and fixes it.
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', offlineCodeMinutes: 0 });
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: false });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 6 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['failed']);
    expect(await giveOfflineCodes(jobContext(ctx.deps, 'stay.sweep', randomUUID()), new Date(), { hotelId: h.hotel.id })).toBe(0);

    const today = await getToday(h.staff);
    expect(today.notReady).toMatchObject({ total: 1, stays: [{ stayId: stay.id, roomId: h.room.id, reason: 'gateway_offline' }] });
    const board = await listRooms(h.staff, { search: h.room.name });
    expect([board.items[0]!.currentStay, board.items[0]!.nextStay].find((s) => s?.id === stay.id)).toMatchObject({ keyNotReady: true });

    // Another hotel, and a member limited to another room, find no such stay.
    const other = await hotelWithRoom();
    await expect(fixArrivalAccess(other.owner, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getToday(other.owner)).notReady.total).toBe(0);
    const {
      rooms: [elsewhere],
    } = await createRooms(ctx.deps, h.hotel.id, [`E${randomUUID().slice(0, 6)}`]);
    const limited = await member(ctx, h.hotel.id, 'staff', [elsewhere!.id]);
    await expect(fixArrivalAccess(limited.ctx, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getToday(limited.ctx)).notReady.total).toBe(0);

    // Two clicks at once (two clerks, or a double click): one offline code.
    const [fixed, again] = await Promise.all([fixArrivalAccess(h.staff, { stayId: stay.id }), fixArrivalAccess(h.owner, { stayId: stay.id })]);
    expect([fixed.fix, again.fix].sort()).toEqual(['nothing', 'offline_code']);
    expect((await passwordsOf(stay.id)).filter((p) => p.offline)).toHaveLength(1);
    expect(fixed.stay.offlineCode).toMatchObject({ reason: 'gateway_offline' });
    await expect.poll(async () => (await passwordsOf(stay.id)).find((p) => p.offline)?.deliveryState, { timeout: 20_000 }).toBe('on_lock');
    expect(await use(h.lockId, (await passwordsOf(stay.id)).find((p) => p.offline)!.code!)).toMatchObject({ opened: true });
    expect((await getToday(h.staff)).notReady.total).toBe(0);
    const after = await listRooms(h.staff, { search: h.room.name });
    expect([after.items[0]!.currentStay, after.items[0]!.nextStay].find((s) => s?.id === stay.id)).toMatchObject({ keyNotReady: false });
    // Twice is once: nothing left to fix.
    expect((await fixArrivalAccess(h.staff, { stayId: stay.id })).fix).toBe('nothing');
    await client.control('PATCH', `/gateways/${h.gatewayId}`, { online: true });
  });

  it('moved dates: the code follows with the rule’s margins; cancelled: the code comes off and the door refuses it', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [before] = await passwordsOf(stay.id);
    expect(await use(h.lockId, before!.code!)).toMatchObject({ opened: true });

    const checkInAt = new Date(Date.now() + 4 * HOUR);
    const expectedCheckOutAt = new Date(Date.now() + 30 * HOUR);
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    const moved = await transaction(ctx.deps, (tx) =>
      moveReservationDates(tx, job, { hotelId: h.hotel.id, timeZone: h.hotel.timeZone, stayId: stay.id, checkInAt, expectedCheckOutAt, note: 'moved' }),
    );
    expect(moved).toHaveProperty('moved');
    const [after] = await passwordsOf(stay.id);
    expect(after!.validFrom.getTime()).toBe(Math.floor((checkInAt.getTime() - 3 * HOUR) / 60_000) * 60_000);
    expect(after!.validUntil!.getTime()).toBe(Math.floor((expectedCheckOutAt.getTime() + HOUR) / 60_000) * 60_000);

    expect(await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId: stay.id, note: 'gone' }))).toBe(true);
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: stay.id });
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['removed']);
    expect(await use(h.lockId, before!.code!)).toMatchObject({ opened: false });
  });

  it('issues nothing when the rule is off, and for a desk reservation unless the rule says so', async () => {
    const h = await hotelWithRoom();
    const off = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    expect(await issueJob(off.id)).toBeUndefined();
    expect(await issueOnTime(jobContext(ctx.deps, 'stay.issue', 'off'), { stayId: off.id, version: off.version })).toBe('not_covered');

    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    const desk = await createReservation(h.staff, {
      roomId: h.room.id,
      checkInAt: new Date(Date.now() + 30 * HOUR),
      expectedCheckOutAt: new Date(Date.now() + 50 * HOUR),
      guests: [{ name: 'Desk Guest', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    expect(await issueJob(desk.id)).toBeUndefined();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', deskReservations: true });
    // Turning it on schedules the reservations it now covers.
    await expect.poll(async () => (await passwordsOf(desk.id)).length, { timeout: 20_000 }).toBe(1);
  });
});

describe('auto check-in at the door', () => {
  const opening = (lockId: string, name: string, at = new Date(), success = true) => ({
    recordId: `rules-${randomUUID()}`,
    lockId,
    recordType: 4,
    success,
    username: name,
    credential: '',
    lockDate: at,
    serverDate: at,
    battery: 90,
  });
  const statusOf = async (id: number) => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id } })).status;
  const arrivals = (id: number) => ctx.deps.prisma.auditLog.count({ where: { action: 'stay.arrivedAtDoor', entityId: String(id) } });

  it('the first opening by the stay’s own code marks it arrived, once; not when off, not by another’s code, not by a refusal', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', autoCheckIn: false });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    const [pw] = await passwordsOf(stay.id);
    const own = `Ana Silva #P${pw!.id}`;

    // Off: the opening is stored, the reservation stays reserved.
    await ingestLockRecords(ctx.deps, [opening(h.lockId, own)]);
    expect(await statusOf(stay.id)).toBe('reserved');

    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', autoCheckIn: true });
    // Someone else's code (no stay), and a refusal of the guest's own: nothing.
    const cleaner = await createPassword(h.staff, { roomId: h.room.id, kind: 'custom', code: '580417', holderName: 'Cleaner' });
    await ingestLockRecords(ctx.deps, [opening(h.lockId, `Cleaner #P${cleaner.id}`), opening(h.lockId, own, new Date(), false)]);
    expect(await statusOf(stay.id)).toBe('reserved');

    // The guest's own opening: arrived at the door, in house from the opening (before the check-in time).
    const first = opening(h.lockId, own, new Date(Date.now() - 60_000));
    await ingestLockRecords(ctx.deps, [first]);
    expect(await statusOf(stay.id)).toBe('in_house');
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).checkInAt.getTime()).toBe(first.lockDate.getTime());
    // The same record again, and a later opening: still one arrival.
    await ingestLockRecords(ctx.deps, [first, opening(h.lockId, own)]);
    expect(await arrivals(stay.id)).toBe(1);
  });
});

describe('access rule settings', () => {
  it('a room group of another hotel is not found; a group inherits the hotel’s rule until it has its own', async () => {
    const a = await hotelWithRoom();
    const b = await createHotelWithStaff(ctx.deps);
    const bOwner = await actorContext(ctx.deps, b.ownerToken);
    const group = await ctx.deps.prisma.roomGroup.create({ data: { hotelId: a.hotel.id, name: `G${randomUUID().slice(0, 6)}` } });
    await expect(setAccessRule(bOwner, { ...RULE, groupId: group.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getAccessRule(bOwner, { groupId: group.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(setAccessRule(a.staff, RULE)).rejects.toMatchObject({ code: 'FORBIDDEN' });

    await setAccessRule(a.owner, RULE);
    expect(await getAccessRule(a.owner, { groupId: group.id })).toMatchObject({ inherited: true, enabled: true, codeRule: 'phone_last4' });
    await setAccessRule(a.owner, { ...RULE, groupId: group.id, codeRule: 'random' });
    const list = await listAccessRules(a.owner);
    expect(list.hotel).toMatchObject({ codeRule: 'phone_last4', inherited: false });
    expect(list.groups.find((g) => g.groupId === group.id)).toMatchObject({ codeRule: 'random', inherited: false });
    expect(await ctx.deps.prisma.accessRule.count({ where: { hotelId: b.hotel.id } })).toBe(0);
  });

  it('refuses a card kind that is not a yes or no (NUL, a lone surrogate, 1e308, %), and keeps the rule as it was', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, card: true });
    const api = trpcClient(ctx.app);
    for (const bad of ['\u0000', '\ud800', 1e308, '%']) {
      const answer = await api.mutation('accessRule.set', { ...RULE, card: bad as unknown as boolean }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status).toBe(400);
    }
    expect(await getAccessRule(h.owner)).toMatchObject({ card: true });
  });

  it('two identical sets at once: both answer, one rule is written', async () => {
    const h = await hotelWithRoom();
    const results = await Promise.all([setAccessRule(h.owner, RULE), setAccessRule(h.owner, RULE)]);
    expect(results.map((r) => r.enabled)).toEqual([true, true]);
    expect(await ctx.deps.prisma.accessRule.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'accessRule.set' } })).toBe(2);
  });
});

const stayOf = (id: number) => ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id } });
const job = (name: TAuditJob) => jobContext(ctx.deps, name, randomUUID());

describe('the sweep catches up issue jobs that were lost', () => {
  it('a reservation whose job Redis lost gets its code from the stay sweep; one whose moment has not come gets nothing', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    // Never queued (as after a Redis restored from an old backup): no issue job.
    const lost = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile(), { schedule: false });
    const later = await channelStay(h, new Date(Date.now() + 5 * DAY), new Date(Date.now() + 6 * DAY), uniqueMobile(), { schedule: false });
    expect(await issueJob(lost.id)).toBeUndefined();
    expect(await passwordsOf(lost.id)).toEqual([]);

    // The periodic sweep, as the stay queue runs it (this hotel only: the test files share a database).
    await ctx.deps.queues.stay.add('sweep', { stayId: 0, version: 0, hotelId: h.hotel.id }, { jobId: `sweep-${randomUUID()}` });
    await expect.poll(async () => (await passwordsOf(lost.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(lost.id);
    const [pw] = await passwordsOf(lost.id);
    expect(pw).toMatchObject({ kind: 'custom', deliveryState: 'on_lock' });
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: true });
    expect((await stayOf(lost.id)).accessIssuedAt).not.toBeNull();
    expect(await passwordsOf(later.id)).toEqual([]);
    // Its moment come (2 days and 3 hours before the check-in), the sweep issues it too.
    const moment = new Date(later.checkInAt.getTime() - 2 * DAY - 3 * HOUR);
    expect(await sweepAccessIssues(job('stay.sweep'), new Date(moment.getTime() - 60_000), { hotelId: h.hotel.id })).toBe(0);
    expect(await sweepAccessIssues(job('stay.sweep'), moment, { hotelId: h.hotel.id })).toBe(1);
    expect(await passwordsOf(later.id)).toHaveLength(1);
    // Again: nothing more.
    expect(await sweepAccessIssues(job('stay.sweep'), moment, { hotelId: h.hotel.id })).toBe(0);
  });

  it('a job and the sweep at the same moment issue once', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    for (let round = 0; round < 4; round++) {
      const from = Date.now() + (2 + round * 12) * HOUR;
      const stay = await channelStay(h, new Date(from), new Date(from + 10 * HOUR), uniqueMobile(), { schedule: false });
      const now = new Date();
      const [fromJob, fromSweep] = await Promise.all([
        issueOnTime(job('stay.issue'), { stayId: stay.id, version: stay.version }, now),
        sweepAccessIssues(job('stay.sweep'), now, { hotelId: h.hotel.id }),
      ]);
      expect([fromJob === 'issued' ? 1 : 0, fromSweep].sort()).toEqual([0, 1]);
      expect(await passwordsOf(stay.id)).toHaveLength(1);
      expect(await ctx.deps.prisma.auditLog.count({ where: { action: 'stay.accessIssue', entityId: String(stay.id) } })).toBe(1);
    }
  });

  it('the sweep leaves alone the rule off, a desk reservation the rule does not cover, and another hotel', async () => {
    const a = await hotelWithRoom();
    const b = await hotelWithRoom();
    await setAccessRule(b.owner, { ...RULE, codeRule: 'random' });
    const off = await channelStay(a, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile(), { schedule: false });
    await setAccessRule(a.owner, { ...RULE, codeRule: 'random', enabled: false });
    const desk = await createReservation(b.staff, {
      roomId: b.room.id,
      checkInAt: new Date(Date.now() + 30 * HOUR),
      expectedCheckOutAt: new Date(Date.now() + 50 * HOUR),
      guests: [{ name: 'Desk Guest', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const other = await channelStay(b, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile(), { schedule: false });
    // Hotel a's sweep: its rule is off.
    expect(await sweepAccessIssues(job('stay.sweep'), new Date(), { hotelId: a.hotel.id })).toBe(0);
    expect(await passwordsOf(off.id)).toEqual([]);
    expect(await passwordsOf(other.id)).toEqual([]);
    expect(await sweepAccessIssues(job('stay.sweep'), new Date(), { hotelId: b.hotel.id })).toBe(1);
    expect(await passwordsOf(other.id)).toHaveLength(1);
    expect(await passwordsOf(desk.id)).toEqual([]);
  });
});

describe('the margin after the check-out', () => {
  it('a stay that ends by itself keeps the rule’s code until check-out + margin, then it comes off and the door refuses it', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', minutesAfterCheckOut: 60 });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [pw] = await passwordsOf(stay.id);
    const end = pw!.validUntil!;
    expect(end.getTime()).toBe(Math.floor((stay.expectedCheckOutAt.getTime() + HOUR) / 60_000) * 60_000);

    // Expired at its check-out (not checked out by the desk): the code stays for the margin.
    const { version } = await stayOf(stay.id);
    expect(await expireOnTime(job('stay.expire'), { stayId: stay.id, version }, new Date(stay.expectedCheckOutAt.getTime() + 60_000))).toBe(true);
    expect((await stayOf(stay.id)).status).toBe('expired');
    expect((await passwordsOf(stay.id)).map((p) => p.deliveryState)).toEqual(['on_lock']);
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: true });
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.expire', entityId: String(stay.id) } });
    expect(audit?.after).toMatchObject({ status: 'expired', keptUntil: end.toISOString() });
    // Its `lapse` job waits for the end of the margin.
    const lapse = (await ctx.deps.queues.stay.getJobs(['delayed'])).find((j) => j.name === 'lapse' && j.data.stayId === stay.id);
    expect(lapse).toBeDefined();
    expect(Math.abs(lapse!.delay - (end.getTime() - (stay.expectedCheckOutAt.getTime() + 60_000)))).toBeLessThan(5_000);

    // Before the margin's end: nothing; at its end: taken off, and the door refuses the code.
    expect(await lapseOnTime(job('stay.lapse'), { stayId: stay.id, version }, new Date(end.getTime() - 60_000))).toBe(0);
    expect((await passwordsOf(stay.id)).map((p) => p.deliveryState)).toEqual(['on_lock']);
    expect(await lapseOnTime(job('stay.lapse'), { stayId: stay.id, version }, end)).toBe(1);
    await expect
      .poll(async () => (await passwordsOf(stay.id)).map((p) => [p.deliveryState, p.revokeReason]), { timeout: 20_000 })
      .toEqual([['removed', 'expired']]);
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: false });
  });

  it('the stay sweep expires it the same way and takes the code off once the margin has passed', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', minutesAfterCheckOut: 30 });
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [pw] = await passwordsOf(stay.id);
    const out = stay.expectedCheckOutAt.getTime();
    expect((await sweepStays(job('stay.sweep'), new Date(out + 60_000), { hotelId: h.hotel.id })).expired).toBe(1);
    expect((await passwordsOf(stay.id)).map((p) => p.deliveryState)).toEqual(['on_lock']);
    await sweepStays(job('stay.sweep'), new Date(out + 20 * 60_000), { hotelId: h.hotel.id });
    expect((await passwordsOf(stay.id)).map((p) => p.deliveryState)).toEqual(['on_lock']);
    await sweepStays(job('stay.sweep'), new Date(out + 31 * 60_000), { hotelId: h.hotel.id });
    await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['removed']);
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: false });
  });

  it('a check-out at the desk takes the rule’s code off at once, margin or not', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', minutesAfterCheckOut: 120 });
    const stay = await channelStay(h, new Date(Date.now() - HOUR), new Date(Date.now() + 23 * HOUR), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [pw] = await passwordsOf(stay.id);
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: true });
    // The stay began by itself at its check-in time, then the desk checks the guest out.
    expect(await arriveOnTime(job('stay.arrive'), { stayId: stay.id, version: (await stayOf(stay.id)).version })).toBe(true);
    const out = await checkOut(h.staff, { stayId: stay.id });
    expect(out.revokedCredentials).toBe(1);
    await expect
      .poll(async () => (await passwordsOf(stay.id)).map((p) => [p.deliveryState, p.revokeReason]), { timeout: 20_000 })
      .toEqual([['removed', 'check_out']]);
    expect(await use(h.lockId, pw!.code!)).toMatchObject({ opened: false });
  });
});

describe('generated codes and the 24-hour first use', () => {
  const opening = (lockId: string, name: string, at = new Date()) => ({
    recordId: `rules-${randomUUID()}`,
    lockId,
    recordType: 4,
    success: true,
    username: name,
    credential: '',
    lockDate: at,
    serverDate: at,
    battery: 90,
  });

  it('an unused generated code of a reservation is replaced once its first-use window has passed, and the guest is sent the new one', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', codeType: 'generated', issueDaysBefore: 1, minutesBeforeCheckIn: 0 });
    const stay = await channelStay(h, new Date(Date.now() + 3 * HOUR), new Date(Date.now() + 4 * DAY), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [old] = await passwordsOf(stay.id);
    expect(old).toMatchObject({ kind: 'air', deliveryState: 'on_lock' });
    expect(old!.code).toMatch(/^\d+$/);
    const start = old!.validFrom.getTime();
    const renew = (at: number) => renewUnusedGeneratedCodes(job('stay.sweep'), new Date(at), { hotelId: h.hotel.id });

    // Within its window: kept.
    expect(await renew(start + 23 * HOUR)).toBe(0);
    // The simulated lock, its clock past the window, suspends the unused code (TTLock's rule).
    const lockNow = start + DAY + 10 * 60_000;
    await client.control('PATCH', `/locks/${h.lockId}`, { clockOffsetMs: lockNow - Date.now() });
    try {
      expect(await use(h.lockId, old!.code!)).toMatchObject({ opened: false, outcome: 'suspended' });

      // Past the window, unused: a new generated code for the rest of the stay, the old one taken off.
      expect(await renew(start + DAY + 60_000)).toBe(1);
      await expect
        .poll(async () => (await passwordsOf(stay.id)).map((p) => [p.deliveryState, p.revokeReason]), { timeout: 20_000 })
        .toEqual([
          ['removed', 'replaced'],
          ['on_lock', null],
        ]);
      const [, fresh] = await passwordsOf(stay.id);
      expect(fresh).toMatchObject({ kind: 'air', replacesId: old!.id, validUntil: old!.validUntil });
      expect(fresh!.validFrom.getTime()).toBe(start + DAY);
      expect(fresh!.code).not.toBe(old!.code);
      expect(await use(h.lockId, fresh!.code!)).toMatchObject({ opened: true });
      // The guest is sent the new code (a message of the new password, once the lock cloud gave it).
      await expect
        .poll(async () => (await ctx.deps.prisma.guestMessage.findMany({ where: { stayId: stay.id, passwordId: fresh!.id } })).length, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.accessRenewUnused', entityId: String(stay.id) } });
      expect(audit?.after).toMatchObject({ password: fresh!.id, reason: 'first_use_window' });
      // Again at the same moment: nothing more.
      expect(await renew(start + DAY + 60_000)).toBe(0);
    } finally {
      await client.control('PATCH', `/locks/${h.lockId}`, { clockOffsetMs: 0 });
    }
  });

  it('a stay begun by itself: its unused code is replaced until the guest has opened the door with any of the stay’s credentials', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', codeType: 'generated', issueDaysBefore: 1, minutesBeforeCheckIn: 0 });
    const stay = await channelStay(h, new Date(Date.now() + 3 * HOUR), new Date(Date.now() + 4 * DAY), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(stay.id);
    const [pw] = await passwordsOf(stay.id);
    // Begun by itself at its check-in time (a channel's booking), the guest not yet at the door.
    expect(
      await arriveOnTime(job('stay.arrive'), { stayId: stay.id, version: (await stayOf(stay.id)).version }, new Date(stay.checkInAt.getTime() + 60_000)),
    ).toBe(true);
    // The guest opened with another credential of the stay (a code the desk added): arrived, the unused code is kept.
    const desk = await createPassword(h.staff, { roomId: h.room.id, stayId: stay.id, kind: 'custom', code: '472913' });
    await ingestLockRecords(ctx.deps, [opening(h.lockId, `Ana Silva #P${desk.id}`, new Date(pw!.validFrom.getTime() + HOUR))]);
    expect(await renewUnusedGeneratedCodes(job('stay.sweep'), new Date(pw!.validFrom.getTime() + DAY + 60_000), { hotelId: h.hotel.id })).toBe(0);

    // Another such stay with no opening at all: replaced.
    const b = await hotelWithRoom();
    await setAccessRule(b.owner, { ...RULE, codeRule: 'random', codeType: 'generated', issueDaysBefore: 1, minutesBeforeCheckIn: 0 });
    const idle = await channelStay(b, new Date(Date.now() + 3 * HOUR), new Date(Date.now() + 4 * DAY), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(idle.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(idle.id);
    const [idlePw] = await passwordsOf(idle.id);
    expect(
      await arriveOnTime(job('stay.arrive'), { stayId: idle.id, version: (await stayOf(idle.id)).version }, new Date(idle.checkInAt.getTime() + 60_000)),
    ).toBe(true);
    expect(await renewUnusedGeneratedCodes(job('stay.sweep'), new Date(idlePw!.validFrom.getTime() + DAY + 60_000), { hotelId: b.hotel.id })).toBe(1);
  });

  it('a generated code used once is kept, and so is one of a stay that has ended', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', codeType: 'generated', issueDaysBefore: 1, minutesBeforeCheckIn: 0 });
    const used = await channelStay(h, new Date(Date.now() + 3 * HOUR), new Date(Date.now() + 2 * DAY), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(used.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(used.id);
    const [pw] = await passwordsOf(used.id);
    // The lock's record of its first use came back (callback or polling).
    await ingestLockRecords(ctx.deps, [opening(h.lockId, `Ana Silva #P${pw!.id}`, new Date(pw!.validFrom.getTime() + HOUR))]);
    expect(await renewUnusedGeneratedCodes(job('stay.sweep'), new Date(pw!.validFrom.getTime() + DAY + 60_000), { hotelId: h.hotel.id })).toBe(0);
    expect((await passwordsOf(used.id)).map((p) => p.deliveryState)).toEqual(['on_lock']);

    const b = await hotelWithRoom();
    await setAccessRule(b.owner, { ...RULE, codeRule: 'random', codeType: 'generated', issueDaysBefore: 1, minutesBeforeCheckIn: 0 });
    const gone = await channelStay(b, new Date(Date.now() + 3 * HOUR), new Date(Date.now() + 2 * DAY), uniqueMobile());
    await expect.poll(async () => (await passwordsOf(gone.id)).length, { timeout: 20_000 }).toBe(1);
    await settledPasswords(gone.id);
    const [gonePw] = await passwordsOf(gone.id);
    const jobCtx = jobContext(ctx.deps, 'feeds.read', randomUUID());
    await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, jobCtx, { hotelId: b.hotel.id, stayId: gone.id, note: 'gone' }));
    expect(await renewUnusedGeneratedCodes(job('stay.sweep'), new Date(gonePw!.validFrom.getTime() + DAY + 60_000), { hotelId: b.hotel.id })).toBe(0);
    expect((await passwordsOf(gone.id)).filter((p) => p.replacesId !== null)).toEqual([]);
  });
});

describe('number cards by the rule', () => {
  const grantsOf = (stayId: number) => ctx.deps.prisma.cardGrant.findMany({ where: { stayId }, orderBy: { id: 'asc' }, include: { card: true } });
  const useCard = (lockId: string, cardNumber: string) => client.control<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { cardNumber });
  const cardOf = async (h: Awaited<ReturnType<typeof hotelWithRoom>>, id: number) => toStayDto(await findStay(h.staff, id), new Date()).accessCard;

  it('without a card number the desk is told "card to issue at arrival"; the guest’s own card then follows the next reservation, its dates and its cancellation', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', card: true });
    const mobile = uniqueMobile();
    const first = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    await expect.poll(async () => (await stayOf(first.id)).accessCard, { timeout: 20_000 }).toBe('card_at_arrival');
    expect(await grantsOf(first.id)).toEqual([]);
    expect(await cardOf(h, first.id)).toBe('card_at_arrival');
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { action: 'stay.accessIssue', entityId: String(first.id) } });
    expect(audit?.after).toMatchObject({ card: { outcome: 'card_at_arrival' } });
    // The code was issued all the same.
    expect(await passwordsOf(first.id)).toHaveLength(1);

    // The desk gives the guest a number card at arrival: the stay no longer asks for one.
    const cardNumber = String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    await sendCard(h.staff, { cardNumber, stayId: first.id });
    expect(await cardOf(h, first.id)).toBeNull();
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId: first.id, note: 'gone' }));
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: first.id });
    await expect.poll(async () => (await grantsOf(first.id)).map((g) => g.deliveryState), { timeout: 20_000 }).toEqual(['removed']);

    // The same guest books again: the guest's card is sent to the lock by its number, and opens the door.
    const again = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 20 * HOUR), mobile);
    await expect.poll(async () => (await grantsOf(again.id)).map((g) => g.deliveryState), { timeout: 20_000 }).toEqual(['on_lock']);
    const [grant] = await grantsOf(again.id);
    expect(grant).toMatchObject({ medium: 'number', roomId: h.room.id, card: expect.objectContaining({ cardNumber }) });
    expect(grant!.validFrom.getTime()).toBe(again.checkInAt.getTime() - 3 * HOUR);
    expect(grant!.validUntil!.getTime()).toBe(again.expectedCheckOutAt.getTime() + HOUR);
    expect((await stayOf(again.id)).accessCard).toBe('card_sent');
    expect(await useCard(h.lockId, cardNumber)).toMatchObject({ opened: true });

    // Moved: the card's period follows with the rule's margins.
    const checkInAt = new Date(Date.now() + 3 * HOUR);
    const expectedCheckOutAt = new Date(Date.now() + 22 * HOUR);
    await transaction(ctx.deps, (tx) =>
      moveReservationDates(tx, job, { hotelId: h.hotel.id, timeZone: h.hotel.timeZone, stayId: again.id, checkInAt, expectedCheckOutAt, note: 'moved' }),
    );
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: again.id });
    await expect.poll(async () => (await grantsOf(again.id)).map((g) => g.deliveryState), { timeout: 20_000 }).toEqual(['on_lock']);
    const [moved] = await grantsOf(again.id);
    expect(moved!.validUntil!.getTime()).toBe(expectedCheckOutAt.getTime() + HOUR);
    const issue = await ctx.deps.prisma.cardIssue.findFirstOrThrow({ where: { stayId: again.id } });
    expect(issue.validUntil!.getTime()).toBe(expectedCheckOutAt.getTime() + HOUR);

    // Cancelled: the card comes off the lock and the door refuses it.
    await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId: again.id, note: 'gone' }));
    await afterCredentialChange(ctx.deps, h.hotel.id, { stayId: again.id });
    await expect
      .poll(async () => (await grantsOf(again.id)).map((g) => [g.deliveryState, g.revokeReason]), { timeout: 20_000 })
      .toEqual([['removed', 'cancelled']]);
    expect(await useCard(h.lockId, cardNumber)).toMatchObject({ opened: false });
    expect((await ctx.deps.prisma.cardIssue.findFirstOrThrow({ where: { stayId: again.id } })).state).toBe('ended');
  });

  it('auto check-in: the first opening by the guest’s card marks the reservation arrived', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random', card: true, autoCheckIn: true });
    const mobile = uniqueMobile();
    const first = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    await expect.poll(async () => (await stayOf(first.id)).accessCard, { timeout: 20_000 }).toBe('card_at_arrival');
    const cardNumber = String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    await sendCard(h.staff, { cardNumber, stayId: first.id });
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: h.hotel.id, stayId: first.id, note: 'gone' }));
    const stay = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 20 * HOUR), mobile);
    await expect.poll(async () => (await grantsOf(stay.id)).map((g) => g.deliveryState), { timeout: 20_000 }).toEqual(['on_lock']);
    const [grant] = await grantsOf(stay.id);
    const at = new Date();
    await ingestLockRecords(ctx.deps, [
      {
        recordId: `rules-${randomUUID()}`,
        lockId: h.lockId,
        recordType: 7,
        success: true,
        username: `Ana Silva #C${grant!.issueId}`,
        credential: cardNumber,
        lockDate: at,
        serverDate: at,
        battery: 90,
      },
    ]);
    expect((await stayOf(stay.id)).status).toBe('in_house');
    expect(await ctx.deps.prisma.auditLog.count({ where: { action: 'stay.arrivedAtDoor', entityId: String(stay.id) } })).toBe(1);
  });

  it('a card of another hotel, or one reported lost, is never the guest’s card', async () => {
    const a = await hotelWithRoom();
    const b = await hotelWithRoom();
    const mobile = uniqueMobile();
    // Hotel a gave this phone a card; hotel b knows nothing of it.
    const stayA = await channelStay(a, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    const lost = String(3_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    await sendCard(a.staff, { cardNumber: lost, stayId: stayA.id });
    await setAccessRule(b.owner, { ...RULE, codeRule: 'random', card: true });
    const stayB = await channelStay(b, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 26 * HOUR), mobile);
    await expect.poll(async () => (await stayOf(stayB.id)).accessCard, { timeout: 20_000 }).toBe('card_at_arrival');
    expect(await grantsOf(stayB.id)).toEqual([]);

    // In hotel a, the card reported lost after the stay: the next reservation gets none.
    const job = jobContext(ctx.deps, 'feeds.read', randomUUID());
    await transaction(ctx.deps, (tx) => cancelChannelReservation(tx, job, { hotelId: a.hotel.id, stayId: stayA.id, note: 'gone' }));
    await ctx.deps.prisma.card.updateMany({ where: { hotelId: a.hotel.id, cardNumber: lost }, data: { lostAt: new Date() } });
    await setAccessRule(a.owner, { ...RULE, codeRule: 'random', card: true });
    const next = await channelStay(a, new Date(Date.now() + 30 * HOUR), new Date(Date.now() + 40 * HOUR), mobile);
    await expect.poll(async () => (await stayOf(next.id)).accessCard, { timeout: 20_000 }).toBe('card_at_arrival');
    expect(await grantsOf(next.id)).toEqual([]);
  });
});

describe('a day’s arrivals issued together (bench/README §17)', () => {
  /** More rooms of the hotel, each with a simulated lock behind a gateway. */
  async function moreRooms(h: Awaited<ReturnType<typeof hotelWithRoom>>, count: number) {
    const { rooms } = await createRooms(
      ctx.deps,
      h.hotel.id,
      Array.from({ length: count }, () => `R${randomUUID().slice(0, 6)}`),
    );
    for (const room of rooms) await pairSimLock(ctx.deps, h.hotel.id, room.id, (await client.lockWithGateway({})).lockId);
    return rooms;
  }
  const issueAudits = (stayIds: number[]) =>
    ctx.deps.prisma.auditLog.findMany({
      where: { action: 'stay.accessIssue', entityId: { in: stayIds.map(String) } },
      select: { entityId: true, requestId: true },
    });

  it('a job issues its hotel’s other arrivals due by then in its transaction, each once; not one not yet due, nor another hotel’s', async () => {
    const h = await hotelWithRoom();
    const other = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    await setAccessRule(other.owner, { ...RULE, codeRule: 'random' });
    const rooms = [h.room, ...(await moreRooms(h, 3))];
    const from = Date.now() + 2 * HOUR;
    const due = [];
    for (const room of rooms) due.push(await channelStay(h, new Date(from), new Date(from + 20 * HOUR), uniqueMobile(), { schedule: false, room }));
    const notYet = await channelStay(h, new Date(Date.now() + 5 * DAY), new Date(Date.now() + 6 * DAY), uniqueMobile(), { schedule: false, room: rooms[1] });
    const elsewhere = await channelStay(other, new Date(from), new Date(from + 20 * HOUR), uniqueMobile(), { schedule: false });

    expect(await issueOnTime(job('stay.issue'), { stayId: due[0]!.id, version: due[0]!.version })).toBe('issued');
    for (const stay of due) expect(await passwordsOf(stay.id)).toHaveLength(1);
    expect(await passwordsOf(notYet.id)).toEqual([]);
    expect(await passwordsOf(elsewhere.id)).toEqual([]);
    // One transaction, the first job's: every audit row carries its request.
    const audits = await issueAudits(due.map((s) => s.id));
    expect(audits).toHaveLength(due.length);
    expect(new Set(audits.map((a) => a.requestId)).size).toBe(1);
    // The others' own jobs find them issued.
    for (const stay of due.slice(1)) expect(await issueOnTime(job('stay.issue'), { stayId: stay.id, version: stay.version })).toBe('stale');
    for (const stay of due) expect(await passwordsOf(stay.id)).toHaveLength(1);
    // Every code reaches its lock.
    for (const stay of due) await settledPasswords(stay.id);
    for (const stay of due) expect((await passwordsOf(stay.id))[0]).toMatchObject({ deliveryState: 'on_lock' });
  });

  it('two arrivals of one room with one phone in one batch: the first gets the phone’s digits, the second is told they are in use and gets the fallback', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, RULE);
    const mobile = uniqueMobile();
    const first = await channelStay(h, new Date(Date.now() + 2 * HOUR), new Date(Date.now() + 12 * HOUR), mobile, { schedule: false });
    const second = await channelStay(h, new Date(Date.now() + 14 * HOUR), new Date(Date.now() + 24 * HOUR), mobile, { schedule: false });
    expect(await issueOnTime(job('stay.issue'), { stayId: first.id, version: first.version })).toBe('issued');
    const [a] = await passwordsOf(first.id);
    const [b] = await passwordsOf(second.id);
    expect(a).toMatchObject({ code: mobile.slice(-4) });
    expect(b!.code).not.toBe(mobile.slice(-4));
    expect((await stayOf(first.id)).accessOutcome).toBe('as_rule');
    expect((await stayOf(second.id)).accessOutcome).toBe('phone_in_use_random');
  });

  it('the jobs of a day’s arrivals run at once issue each arrival once', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    const rooms = [h.room, ...(await moreRooms(h, 7))];
    const from = Date.now() + 2 * HOUR;
    const due = [];
    for (const room of rooms) due.push(await channelStay(h, new Date(from), new Date(from + 20 * HOUR), uniqueMobile(), { schedule: false, room }));
    const results = await Promise.all(due.map((stay) => issueOnTime(job('stay.issue'), { stayId: stay.id, version: stay.version })));
    // A job whose room another batch held says so (`busy`: its worker brings it back), and that batch issued it.
    expect(results.every((r) => r === 'issued' || r === 'stale' || r === 'busy')).toBe(true);
    expect(results).toContain('issued');
    for (const stay of due) expect(await passwordsOf(stay.id)).toHaveLength(1);
    expect(await issueAudits(due.map((s) => s.id))).toHaveLength(due.length);
    for (const stay of due) expect((await stayOf(stay.id)).accessIssuedAt).not.toBeNull();
  });

  it('a job whose room the desk holds comes back a moment later instead of waiting, and then issues', async () => {
    const h = await hotelWithRoom();
    await setAccessRule(h.owner, { ...RULE, codeRule: 'random' });
    const from = Date.now() + 2 * HOUR;
    const stay = await channelStay(h, new Date(from), new Date(from + 20 * HOUR), uniqueMobile(), { schedule: false });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    // The desk holds the room (a renewal, a check-in) while the job runs.
    const desk = transaction(ctx.deps, async (tx) => {
      await lockRooms(tx, h.hotel.id, [h.room.id]);
      held();
      await released;
    });
    await isHeld;
    expect(await issueOnTime(job('stay.issue'), { stayId: stay.id, version: stay.version })).toBe('busy');
    expect(await passwordsOf(stay.id)).toEqual([]);
    // Through the worker: the job is put back, runs again once the room is free, and issues.
    await scheduleStayJobs(ctx.deps, stay, h.hotel.timeZone);
    // It ran (BullMQ notes when) and was put back, waiting: nothing issued while the room is held.
    await expect
      .poll(
        async () => {
          const queued = await issueJob(stay.id);
          return queued?.processedOn !== undefined && (await queued.getState()) === 'delayed';
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(await passwordsOf(stay.id)).toEqual([]);
    release();
    await desk;
    await expect.poll(async () => (await passwordsOf(stay.id)).length, { timeout: 20_000 }).toBe(1);
    // The code is visible once the job's transaction commits; BullMQ marks the job completed only
    // after its processor returns, a moment later (on a loaded machine, after this line ran).
    await expect.poll(async () => (await issueJob(stay.id))!.getState(), { timeout: 20_000 }).toBe('completed');
  });
});
