import { randomBytes } from 'node:crypto';
import { ZFeedAddInput, ZFeedDeleteInput, ZFeedEditInput, ZFeedIdInput, ZFeedListInput, ZFeedRoomInput, type TFeedBookingState } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';
import { findRoom, roomScope } from '../base/room-access';
import { stayNights } from '../housekeeping/out-of-order';
import { readFeed, type FeedReadReport, type FeedReadResult } from './feed-import';
import { applyConfirmedEmpty } from './feed-booking';
import { feedNames } from './feed-names';

/**
 * The calendar feeds of a hotel (Room setup > Calendar feeds, issue 20 §1): managers (room.manage)
 * add, edit, delete, read now and confirm an empty answer; each room's export link. Every id is
 * looked up in the actor's hotel and room scope: another hotel's room, group or feed is not found.
 */

export interface FeedBookingDto {
  uid: string;
  state: TFeedBookingState;
  reference: string;
  guestName: string;
  phone: string | null;
  startsAt: Date;
  endsAt: Date;
  stayId: number | null;
  conflictStayId: number | null;
  outOfOrder: { roomName: string; kind: 'out_of_order' | 'out_of_service'; startDate: string; endDate: string; reason: string } | null;
}

export interface FeedDto {
  id: number;
  roomId: number | null;
  roomName: string | null;
  groupId: number | null;
  groupName: string | null;
  label: string;
  url: string;
  everyMinutes: number;
  lastReadAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastEventCount: number | null;
  emptyPending: boolean;
  nextReadAt: Date;
  /** What the last read that succeeded said beyond its counts: events skipped (UID, why), bookings moved to another room. */
  lastReadReport: FeedReadReport | null;
  /** Bookings still to come: reservations made, and conflicts (shown to the user). */
  booked: number;
  conflicts: FeedBookingDto[];
}

const bookingSelect = {
  uid: true,
  state: true,
  reference: true,
  guestName: true,
  phone: true,
  startsAt: true,
  endsAt: true,
  stayId: true,
  conflictStayId: true,
} as const;

const feedSelect = {
  id: true,
  roomId: true,
  groupId: true,
  label: true,
  url: true,
  everyMinutes: true,
  lastReadAt: true,
  lastError: true,
  lastErrorAt: true,
  lastEventCount: true,
  emptyPending: true,
  nextReadAt: true,
  lastReadReport: true,
  room: { select: { name: true } },
  group: { select: { name: true } },
} as const;

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'feeds.errors.notFound' });

/** A feed of the actor's hotel whose room (or group) the actor may manage, or NOT_FOUND. */
async function findFeed(ctx: AuthedContext, feedId: number) {
  const feed = await ctx.deps.prisma.calendarFeed.findFirst({
    where: { id: feedId, hotelId: ctx.actor.hotelId, OR: [{ roomId: null }, { room: roomScope(ctx.actor) }] },
    select: feedSelect,
  });
  if (!feed) throw notFound();
  // A group's feed assigns any of its rooms: only a member managing every room may touch it.
  if (feed.groupId !== null && !ctx.actor.allRooms) throw notFound();
  return feed;
}

async function toDtos(ctx: AuthedContext, feeds: Awaited<ReturnType<typeof findFeed>>[]): Promise<FeedDto[]> {
  const now = new Date();
  const ids = feeds.map((f) => f.id);
  const [counts, conflicts] = await Promise.all([
    ctx.deps.prisma.calendarFeedBooking.groupBy({
      by: ['feedId'],
      where: { feedId: { in: ids }, state: 'booked', endsAt: { gt: now } },
      _count: { _all: true },
    }),
    ctx.deps.prisma.calendarFeedBooking.findMany({
      where: {
        feedId: { in: ids },
        endsAt: { gt: now },
        OR: [
          { state: 'conflict' },
          { state: { in: ['moved_in_house', 'gone_in_house'] }, stay: { status: { in: ['in_house', 'expired'] } } },
          // A second reservation of one booking made before bookings were the hotel's: the desk cancels it.
          { state: 'duplicate', stay: { status: { in: ['reserved', 'in_house', 'expired'] } } },
        ],
      },
      select: { feedId: true, ...bookingSelect },
      orderBy: { startsAt: 'asc' },
      take: 500,
    }),
  ]);
  const blocked = await blockingRanges(ctx, feeds, conflicts);
  return feeds.map(({ room, group, lastReadReport, ...f }) => ({
    ...f,
    lastReadReport: (lastReadReport as FeedReadReport | null) ?? null,
    roomName: room?.name ?? null,
    groupName: group?.name ?? null,
    booked: counts.find((c) => c.feedId === f.id)?._count._all ?? 0,
    conflicts: conflicts
      .filter((c) => c.feedId === f.id)
      .map(({ feedId: _feedId, ...c }) => ({ ...c, state: c.state as TFeedBookingState, outOfOrder: blocked(f, c) })),
  }));
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * For a conflict with no stay to name, the out-of-order or out-of-service range of the feed's room
 * (or of its group's rooms) on one of the booking's nights: why it was not imported.
 */
async function blockingRanges(
  ctx: AuthedContext,
  feeds: { id: number; roomId: number | null; groupId: number | null }[],
  conflicts: { feedId: number | null; state: string; conflictStayId: number | null; startsAt: Date; endsAt: Date }[],
) {
  const unnamed = conflicts.filter((c) => c.state === 'conflict' && c.conflictStayId === null);
  const none = () => null;
  if (unnamed.length === 0) return none;
  const feedsOf = feeds.filter((f) => unnamed.some((c) => c.feedId === f.id));
  const ranges = await ctx.deps.prisma.roomOutOfOrder.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      endDate: { gte: new Date(`${isoDay(new Date(Math.min(...unnamed.map((c) => c.startsAt.getTime())) - 86_400_000))}T00:00:00Z`) },
      OR: [
        { roomId: { in: feedsOf.flatMap((f) => (f.roomId !== null ? [f.roomId] : [])) } },
        { room: { groupId: { in: feedsOf.flatMap((f) => (f.groupId !== null ? [f.groupId] : [])) } } },
      ],
    },
    select: { roomId: true, kind: true, startDate: true, endDate: true, reason: true, room: { select: { name: true, groupId: true } } },
    orderBy: { startDate: 'asc' },
  });
  return (
    f: { id: number; roomId: number | null; groupId: number | null },
    c: { state: string; conflictStayId: number | null; startsAt: Date; endsAt: Date },
  ) => {
    if (c.state !== 'conflict' || c.conflictStayId !== null) return null;
    const { first, last } = stayNights(c.startsAt, c.endsAt, ctx.actor.timeZone);
    const r = ranges.find(
      (x) => (f.roomId !== null ? x.roomId === f.roomId : x.room.groupId === f.groupId) && isoDay(x.startDate) <= last && isoDay(x.endDate) >= first,
    );
    return r
      ? {
          roomName: r.room.name,
          kind: r.kind as 'out_of_order' | 'out_of_service',
          startDate: isoDay(r.startDate),
          endDate: isoDay(r.endDate),
          reason: r.reason,
        }
      : null;
  };
}

export async function listFeeds(ctx: AuthedContext, raw: z.input<typeof ZFeedListInput> = {}): Promise<FeedDto[]> {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId } = ZFeedListInput.parse(raw);
  if (roomId !== undefined) await findRoom(ctx, roomId, { id: true });
  const feeds = await ctx.deps.prisma.calendarFeed.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      ...(roomId !== undefined ? { roomId } : {}),
      OR: [{ roomId: null, ...(ctx.actor.allRooms ? {} : { id: -1 }) }, { room: roomScope(ctx.actor) }],
    },
    select: feedSelect,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 500,
  });
  return toDtos(ctx, feeds);
}

async function target(ctx: AuthedContext, input: { roomId?: number; groupId?: number }) {
  if (input.roomId !== undefined) {
    const room = await findRoom(ctx, input.roomId, { id: true, name: true });
    return { roomId: room.id, groupId: null, name: room.name };
  }
  const group = await ctx.deps.prisma.roomGroup.findFirst({ where: { id: input.groupId!, hotelId: ctx.actor.hotelId }, select: { id: true, name: true } });
  if (!group || !ctx.actor.allRooms) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
  return { roomId: null, groupId: group.id, name: group.name };
}

/** Adds a feed to a room or group; it is read at once (the answer says how that went) and then on its schedule. */
export async function addFeed(ctx: AuthedContext, raw: z.input<typeof ZFeedAddInput>): Promise<FeedDto & { read: FeedReadResult }> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZFeedAddInput.parse(raw);
  const t = await target(ctx, input);
  // The feed, its audit row and its event commit together; its first read follows.
  const feed = await transaction(ctx.deps, async (tx) => {
    const row = await tx.calendarFeed.create({
      data: { hotelId: ctx.actor.hotelId, roomId: t.roomId, groupId: t.groupId, label: input.label, url: input.url, everyMinutes: input.everyMinutes },
      select: { id: true },
    });
    await recordAudit(tx, ctx, {
      action: 'feed.add',
      entityType: 'CalendarFeed',
      entityId: row.id,
      names: { feed: input.label, ...(t.roomId !== null ? { room: t.name } : { group: t.name }) },
      after: { roomId: t.roomId, groupId: t.groupId, target: t.name, label: input.label, url: input.url, everyMinutes: input.everyMinutes },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'feed.changed', roomIds: [t.roomId], feedId: row.id });
    return row;
  });
  const read = await readFeed(ctx, ctx.actor.hotelId, feed.id);
  const [dto] = await toDtos(ctx, [await findFeed(ctx, feed.id)]);
  return { ...dto!, read };
}

export async function editFeed(ctx: AuthedContext, raw: z.input<typeof ZFeedEditInput>): Promise<FeedDto> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZFeedEditInput.parse(raw);
  const before = await findFeed(ctx, input.feedId);
  const urlChanged = before.url !== input.url;
  await transaction(ctx.deps, async (tx) => {
    const { count } = await tx.calendarFeed.updateMany({
      where: { id: before.id, hotelId: ctx.actor.hotelId },
      data: {
        label: input.label,
        url: input.url,
        everyMinutes: input.everyMinutes,
        // A new address is read at the next scan; its old error no longer says anything.
        ...(urlChanged ? { nextReadAt: new Date(), lastError: null, lastErrorAt: null } : {}),
      },
    });
    // Deleted meanwhile by another request: not found, nothing audited.
    if (!count) throw notFound();
    await recordAudit(tx, ctx, {
      action: 'feed.edit',
      entityType: 'CalendarFeed',
      entityId: before.id,
      names: feedNames({ ...before, label: input.label }),
      before: { label: before.label, url: before.url, everyMinutes: before.everyMinutes },
      after: { label: input.label, url: input.url, everyMinutes: input.everyMinutes },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'feed.changed', roomIds: [before.roomId], feedId: before.id });
  });
  const [dto] = await toDtos(ctx, [await findFeed(ctx, before.id)]);
  return dto!;
}

/**
 * Deletes a feed. Its reservations stay (they are the hotel's now); the link to the channel goes,
 * so they are no longer followed: the first answer is CONFIRMATION_REQUIRED saying how many, then `confirm`.
 */
export async function deleteFeed(ctx: AuthedContext, raw: z.input<typeof ZFeedDeleteInput>): Promise<{ deleted: true }> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZFeedDeleteInput.parse(raw);
  const feed = await findFeed(ctx, input.feedId);
  const booked = await ctx.deps.prisma.calendarFeedBooking.count({ where: { feedId: feed.id, state: 'booked', endsAt: { gt: new Date() } } });
  if (!input.confirm) {
    throw new AppError('CONFIRMATION_REQUIRED', {
      messageKey: 'feeds.errors.confirmDelete',
      params: { label: feed.label, count: booked },
      details: { booked },
    });
  }
  await transaction(ctx.deps, async (tx) => {
    const { count } = await tx.calendarFeed.deleteMany({ where: { id: feed.id, hotelId: ctx.actor.hotelId } });
    if (!count) throw notFound();
    await recordAudit(tx, ctx, {
      action: 'feed.delete',
      entityType: 'CalendarFeed',
      entityId: feed.id,
      names: feedNames(feed),
      before: { roomId: feed.roomId, groupId: feed.groupId, label: feed.label, url: feed.url, booked },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'feed.changed', roomIds: [feed.roomId], feedId: feed.id });
  });
  return { deleted: true };
}

/** A read's counts, as its audit entry keeps them (the report is on the feed). */
const counts = ({ report: _report, ...rest }: FeedReadResult) => rest;

/** "Read now": reads the feed at once, as the manager (its reservations' changes are audited as theirs). */
export async function readFeedNow(ctx: AuthedContext, raw: z.input<typeof ZFeedIdInput>): Promise<FeedDto & { read: FeedReadResult }> {
  requirePermission(ctx.actor, 'room.manage');
  const { feedId } = ZFeedIdInput.parse(raw);
  const feed = await findFeed(ctx, feedId);
  const read = await readFeed(ctx, ctx.actor.hotelId, feed.id);
  await recordAudit(ctx.deps.prisma, ctx, {
    action: 'feed.read',
    entityType: 'CalendarFeed',
    entityId: feed.id,
    names: feedNames(feed),
    after: { ...counts(read) },
  });
  const [dto] = await toDtos(ctx, [await findFeed(ctx, feed.id)]);
  return { ...dto!, read };
}

/** The manager confirms that a feed that came back empty has no bookings any more: they are cancelled. */
export async function confirmEmptyFeed(ctx: AuthedContext, raw: z.input<typeof ZFeedIdInput>): Promise<FeedDto & { cancelled: number }> {
  requirePermission(ctx.actor, 'room.manage');
  const { feedId } = ZFeedIdInput.parse(raw);
  const feed = await findFeed(ctx, feedId);
  if (!feed.emptyPending) throw new AppError('CONFLICT', { messageKey: 'feeds.errors.nothingToConfirm' });
  const cancelled = await applyConfirmedEmpty(ctx, { id: feed.id, hotelId: ctx.actor.hotelId, label: feed.label });
  const [dto] = await toDtos(ctx, [await findFeed(ctx, feed.id)]);
  return { ...dto!, cancelled };
}

// ---------------------------------------------------------------------------------------------
// Export: the room's own bookings at a secret address (feed-export.ts serves it).

export const exportPath = (token: string) => `/calendar/${token}.ics`;
const newToken = () => randomBytes(32).toString('base64url');

/** The room's export address (made the first time it is asked for). */
export async function roomExportUrl(ctx: AuthedContext, raw: z.input<typeof ZFeedRoomInput>): Promise<{ roomId: number; path: string; url: string | null }> {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId } = ZFeedRoomInput.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true });
  const row = await ctx.deps.prisma.roomCalendarExport.upsert({
    where: { roomId: room.id },
    create: { roomId: room.id, hotelId: ctx.actor.hotelId, token: newToken() },
    update: {},
    select: { token: true },
  });
  const base = ctx.deps.config.locks.publicUrl?.replace(/\/+$/, '') ?? null;
  return { roomId: room.id, path: exportPath(row.token), url: base ? `${base}${exportPath(row.token)}` : null };
}

/** A new secret address for the room's export: the old one answers "not found" from now on. */
export async function regenerateExportToken(
  ctx: AuthedContext,
  raw: z.input<typeof ZFeedRoomInput>,
): Promise<{ roomId: number; path: string; url: string | null }> {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId } = ZFeedRoomInput.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true, name: true });
  const token = newToken();
  await transaction(ctx.deps, async (tx) => {
    await tx.roomCalendarExport.upsert({
      where: { roomId: room.id },
      create: { roomId: room.id, hotelId: ctx.actor.hotelId, token },
      update: { token, createdAt: new Date() },
    });
    await recordAudit(tx, ctx, { action: 'feed.regenerateExport', entityType: 'Room', entityId: room.id, after: { room: room.name } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'feed.changed', roomIds: [room.id] });
  });
  const base = ctx.deps.config.locks.publicUrl?.replace(/\/+$/, '') ?? null;
  return { roomId: room.id, path: exportPath(token), url: base ? `${base}${exportPath(token)}` : null };
}
