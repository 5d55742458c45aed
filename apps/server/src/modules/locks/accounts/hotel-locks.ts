import { ZHotelLockListInput, ZLockGetInput, ZPairableRoomsInput, type TSharedDoorKind } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import { containsText } from '../../../db/search';
import type { AuthedContext } from '../../../context';
import { AppError } from '../../../errors';
import { requirePermission } from '../../../permissions';
import { lockDisplayName } from '../../base/lock-ref';
import { roomScope } from '../../base/room-access';
import { proposePairs } from './lock-names';
import { LOW_BATTERY_PERCENT } from '../lock-status';

/**
 * The hotel's locks as the lock pages and the JSON API read them (docs/ttlock-account.md): one lock
 * with its state and room, the list with its filters, the names that suggest a room, the rooms a lock
 * may be paired with. Pairing itself is pairing.service.ts.
 */

export interface HotelLockDto {
  id: number;
  /** The provider's lock id (TTLock lockId). */
  lockId: string;
  name: string;
  alias: string;
  mac: string;
  account: { id: number; username: string; state: string } | null;
  capabilities: {
    keypad: boolean;
    onlinePasscodes: boolean;
    offlinePasscodes: boolean;
    cardReader: boolean;
    faceModule: boolean;
    remoteUnlock: boolean;
    encodedCards: boolean;
  };
  building: string;
  floor: string;
  battery: number | null;
  online: boolean | null;
  gateway: string | null;
  gone: boolean;
  room: { id: number; name: string } | null;
  /** A room proposed by name ("101" -> room 101) for an unpaired lock, when exactly one fits. */
  suggestedRoom: { id: number; name: string } | null;
  /** The kind of shared door the lock is: in use, though no room's (docs/shared-doors.md). */
  sharedDoor: TSharedDoorKind | null;
}

/** One lock with its state as last reported (`getHotelLock`). */
export interface HotelLockDetailDto extends HotelLockDto {
  lowBattery: boolean;
  lastSeenAt: string | null;
  statusCheckedAt: string | null;
  statusError: string | null;
}

/** Who may see the hotel's locks: whoever pairs rooms with them, or manages the lock accounts. */
function requireLockReader(ctx: AuthedContext): void {
  if (!ctx.actor.permissions.has('lock.accounts')) requirePermission(ctx.actor, 'room.manage');
}

const LOCK_LIST_SELECT = {
  id: true,
  sharedKind: true,
  providerLockId: true,
  name: true,
  alias: true,
  mac: true,
  hasKeypad: true,
  onlinePasscodes: true,
  offlinePasscodes: true,
  hasCardReader: true,
  hasFaceModule: true,
  remoteUnlock: true,
  encodedCards: true,
  building: true,
  floor: true,
  battery: true,
  online: true,
  gatewayName: true,
  goneAt: true,
  account: { select: { id: true, username: true, state: true } },
  rooms: { where: { deletedAt: null }, select: { id: true, name: true }, take: 1 },
} as const;

type LockListRow = Prisma.LockGetPayload<{ select: typeof LOCK_LIST_SELECT }>;

function toHotelLockDto(l: LockListRow, proposals: Map<number, number>, roomName: Map<number, string>): HotelLockDto {
  const proposed = proposals.get(l.id);
  return {
    id: l.id,
    lockId: l.providerLockId,
    name: l.name,
    alias: l.alias,
    mac: l.mac,
    account: l.account,
    capabilities: {
      keypad: l.hasKeypad,
      onlinePasscodes: l.onlinePasscodes,
      offlinePasscodes: l.offlinePasscodes,
      cardReader: l.hasCardReader,
      faceModule: l.hasFaceModule,
      remoteUnlock: l.remoteUnlock,
      encodedCards: l.encodedCards,
    },
    building: l.building,
    floor: l.floor,
    battery: l.battery,
    online: l.online,
    gateway: l.gatewayName,
    gone: l.goneAt !== null,
    room: l.rooms[0] ?? null,
    suggestedRoom: proposed !== undefined ? { id: proposed, name: roomName.get(proposed) ?? '' } : null,
    sharedDoor: l.sharedKind,
  };
}

/**
 * One lock of the hotel by its id (the `id` of the lock list), with its state as last reported
 * (online, battery, last seen) and its room: the JSON API's `GET /locks/{lockId}`. Who may list
 * the locks may read one; another hotel's lock is not found.
 */
export async function getHotelLock(ctx: AuthedContext, raw: z.input<typeof ZLockGetInput>): Promise<HotelLockDetailDto> {
  requireLockReader(ctx);
  const { id } = ZLockGetInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  const lock = await ctx.deps.prisma.lock.findFirst({
    where: { id, hotelId },
    select: { ...LOCK_LIST_SELECT, lastSeenAt: true, statusCheckedAt: true, statusError: true },
  });
  if (!lock) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.lockNotFound' });
  // An unpaired lock's proposed room, as the list proposes it (among every unpaired lock and free room).
  let proposals = new Map<number, number>();
  let roomName = new Map<number, string>();
  if (!lock.goneAt && !lock.sharedKind && lock.rooms.length === 0) {
    const [unpairedLocks, freeRooms] = await Promise.all([
      ctx.deps.prisma.lock.findMany({
        where: { hotelId, goneAt: null, sharedKind: null, rooms: { none: { deletedAt: null } } },
        select: { id: true, name: true, alias: true },
      }),
      ctx.deps.prisma.room.findMany({ where: { ...roomScope(ctx.actor), lockId: null }, select: { id: true, name: true } }),
    ]);
    proposals = proposePairs(unpairedLocks, freeRooms);
    roomName = new Map(freeRooms.map((r) => [r.id, r.name]));
  }
  return {
    ...toHotelLockDto(lock, proposals, roomName),
    lowBattery: lock.battery != null && lock.battery < LOW_BATTERY_PERCENT,
    lastSeenAt: lock.lastSeenAt?.toISOString() ?? null,
    statusCheckedAt: lock.statusCheckedAt?.toISOString() ?? null,
    statusError: lock.statusError,
  };
}

/** The hotel's locks, page by page, with their room and, for unpaired ones, the room their name proposes. */
export async function listHotelLocks(
  ctx: AuthedContext,
  raw: z.input<typeof ZHotelLockListInput>,
): Promise<{ items: HotelLockDto[]; total: number; page: number; pageSize: number; unpaired: number; suggestions: number }> {
  requireLockReader(ctx);
  const input = ZHotelLockListInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  // A shared door serves rooms without being one's (docs/shared-doors.md): in use, so "paired", never proposed for a room.
  const unpaired: Prisma.LockWhereInput = { goneAt: null, sharedKind: null, rooms: { none: { deletedAt: null } } };
  const paired: Prisma.LockWhereInput = { NOT: { sharedKind: null, rooms: { none: { deletedAt: null } } } };
  const unpairedWhere: Prisma.LockWhereInput = { hotelId, ...unpaired };
  const where: Prisma.LockWhereInput = {
    hotelId,
    ...(input.accountId ? { accountId: input.accountId } : {}),
    ...(input.filter === 'unpaired' ? unpaired : input.filter === 'paired' ? paired : input.filter === 'gone' ? { goneAt: { not: null } } : {}),
    ...(input.search
      ? {
          OR: [
            { alias: containsText(input.search) },
            { name: containsText(input.search) },
            { providerLockId: containsText(input.search) },
            { rooms: { some: { deletedAt: null, name: containsText(input.search) } } },
          ],
        }
      : {}),
  };
  const [total, rows, unpairedLocks, freeRooms] = await Promise.all([
    ctx.deps.prisma.lock.count({ where }),
    ctx.deps.prisma.lock.findMany({
      where,
      select: LOCK_LIST_SELECT,
      orderBy: [{ alias: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    ctx.deps.prisma.lock.findMany({ where: unpairedWhere, select: { id: true, name: true, alias: true } }),
    ctx.deps.prisma.room.findMany({ where: { ...roomScope(ctx.actor), lockId: null }, select: { id: true, name: true } }),
  ]);
  const proposals = proposePairs(unpairedLocks, freeRooms);
  const roomName = new Map(freeRooms.map((r) => [r.id, r.name]));
  const items = rows.map((l) => toHotelLockDto(l, proposals, roomName));
  return { items, total, page: input.page, pageSize: input.pageSize, unpaired: unpairedLocks.length, suggestions: proposals.size };
}

/** Every pair the names propose, to take in bulk ("apply all suggestions"). */
export async function suggestedPairs(ctx: AuthedContext): Promise<{ pairs: { roomId: number; lockId: number }[] }> {
  requireLockReader(ctx);
  const [locks, rooms] = await Promise.all([
    ctx.deps.prisma.lock.findMany({
      where: { hotelId: ctx.actor.hotelId, goneAt: null, rooms: { none: { deletedAt: null } } },
      select: { id: true, name: true, alias: true },
    }),
    ctx.deps.prisma.room.findMany({ where: { ...roomScope(ctx.actor), lockId: null }, select: { id: true, name: true } }),
  ]);
  return { pairs: [...proposePairs(locks, rooms)].map(([lockId, roomId]) => ({ roomId, lockId })) };
}

/** Rooms to pick for a lock (the picker): the actor's rooms matching the text, each with its lock. */
/** Rooms a lock can be paired with, at most this many a search. */
export const PAIRABLE_ROOMS_PAGE = 50;

export async function pairableRooms(ctx: AuthedContext, raw: z.input<typeof ZPairableRoomsInput>) {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZPairableRoomsInput.parse(raw);
  const where = { ...roomScope(ctx.actor), ...(input.search ? { name: containsText(input.search) } : {}) };
  const [rooms, total] = await Promise.all([
    ctx.deps.prisma.room.findMany({
      where,
      select: { id: true, name: true, groupName: true, lock: { select: { id: true, name: true, alias: true } } },
      orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      take: PAIRABLE_ROOMS_PAGE,
    }),
    ctx.deps.prisma.room.count({ where }),
  ]);
  // `total`: the rooms the search matches; when more than the page, the picker asks to narrow it.
  return {
    items: rooms.map((r) => ({ id: r.id, name: r.name, groupName: r.groupName, lock: r.lock ? { id: r.lock.id, name: lockDisplayName(r.lock) } : null })),
    total,
  };
}

/**
 * Credentials of a room that its lock holds (or is being given or relieved of): a room whose lock
 * changes would strand them on the old one. Data cards are not on a lock (their rooms' locks read
 * them), so they do not count.
 */
