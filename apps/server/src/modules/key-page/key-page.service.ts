import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  KEY_LINK_TOKEN,
  KEY_PAGE_ADDRESS_LIMITS,
  KEY_PAGE_OPEN_LIMITS,
  ZKeyPageOpenInput,
  ZKeyPageTokenInput,
  type TKeyPageOpenInput,
  type TKeyPageTokenInput,
  type TSharedDoorKind,
} from '@console/shared';
import type { TKeyPageViewOutput } from '@console/shared/dto';
import type { Deps, ServiceContext } from '../../context';
import { AppError } from '../../errors';
import { consumeOrThrow } from '../auth/limits';
import { LOCK_REF_SELECT, type LockRef } from '../base/lock-ref';
import { openRoomLock } from '../locks/lock.service';
import { doorsServingRooms } from '../credentials/door-copies';
import { languageForGuest } from '../messages/compose';
import { effectiveState } from '../base/stay-dto';
import { currentStayOfVisit, hashKeyToken, keyTokenMatches } from '../messages/key-link';

/**
 * The guest's key page (issue 20 §4, docs/key-page.md): what a link shows and the one thing it does.
 * No session: the token is the secret, and it reaches this stay and its hotel only. An unknown, a
 * malformed, a revoked and an ended link all answer the same NOT_FOUND (no oracle).
 */

interface KeyPageLimiters {
  /** Every use of any link from one client address: viewing and opening, by the page and by tRPC, together. */
  perAddress: RateLimiterRedis;
  openPerMinute: RateLimiterRedis;
  openPerDay: RateLimiterRedis;
}
const cache = new WeakMap<object, KeyPageLimiters>();
function limiters(deps: Pick<Deps, 'redis' | 'key'>): KeyPageLimiters {
  const cached = cache.get(deps.redis);
  if (cached) return cached;
  const make = (name: string, points: number, duration: number) =>
    new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: deps.key('rl', name), points, duration });
  const made = {
    perAddress: make('key-page-address', KEY_PAGE_ADDRESS_LIMITS.perMinute, 60),
    openPerMinute: make('key-page-open-minute', KEY_PAGE_OPEN_LIMITS.perMinute, 60),
    openPerDay: make('key-page-open-day', KEY_PAGE_OPEN_LIMITS.perDay, 86_400),
  };
  cache.set(deps.redis, made);
  return made;
}

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'keyPage.errors.notFound' });

/** Where a stay is now, as the page knows it: upcoming (reserved, not begun), in house, or gone (null). */
type PageState = 'upcoming' | 'in_house';

/** The live link of a token and its visit's current stay while that stay is valid; otherwise NOT_FOUND. */
async function resolve(deps: Deps, token: string, now: Date) {
  if (!KEY_LINK_TOKEN.test(token)) throw notFound();
  const link = await deps.prisma.keyLink.findUnique({
    where: { tokenHash: hashKeyToken(token) },
    select: { id: true, hotelId: true, visitStayId: true, tokenHash: true, revokedAt: true },
  });
  if (!link || link.revokedAt || !keyTokenMatches(token, link.tokenHash)) throw notFound();
  const stay = await currentStayOfVisit(deps.prisma, link.hotelId, link.visitStayId);
  const state = stay ? effectiveState(stay, now) : null;
  if (!stay || (state !== 'reserved' && state !== 'in_house')) throw notFound();
  return { link, stay, state: (state === 'in_house' ? 'in_house' : 'upcoming') as PageState };
}

interface KeyPageDoor {
  door: string;
  kind: 'room' | TSharedDoorKind;
  name: string;
  /** What `openRoomLock` opens: the stay's room, with this door's lock. */
  room: { id: number; lock: LockRef | null };
  remote: boolean;
}

/**
 * The doors a stay's link may open, each with its lock: the room's door, then the shared doors
 * serving the room (docs/shared-doors.md), nothing else of the hotel. `remote`: the lock takes a
 * remote opening (a gateway heard it, or it is a WiFi lock).
 */
async function doorsOf(deps: Deps, hotelId: number, roomId: number): Promise<KeyPageDoor[]> {
  const room = await deps.prisma.room.findFirst({
    where: { id: roomId, hotelId },
    select: { id: true, name: true, lock: { select: { ...LOCK_REF_SELECT, isWifi: true } } },
  });
  if (!room) return [];
  const remote = (lock: (LockRef & { isWifi: boolean }) | null) => Boolean(lock && !lock.goneAt && (lock.gatewayId || lock.isWifi));
  const doorIds = (await doorsServingRooms(deps.prisma, hotelId, [room.id])).get(room.id) ?? [];
  const doors = doorIds.length
    ? await deps.prisma.lock.findMany({
        where: { hotelId, id: { in: doorIds }, sharedKind: { not: null } },
        select: { ...LOCK_REF_SELECT, isWifi: true, name: true, alias: true, sharedKind: true },
        orderBy: { id: 'asc' },
      })
    : [];
  return [
    { door: 'room', kind: 'room', name: room.name, room: { id: room.id, lock: room.lock }, remote: remote(room.lock) },
    ...doors.map((d) => ({
      door: `door-${d.id}`,
      kind: d.sharedKind!,
      name: d.alias || d.name,
      room: { id: room.id, lock: d },
      remote: remote(d),
    })),
  ];
}

function mapUrl(address: string): string | null {
  const a = address.trim();
  return a ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(a)}` : null;
}

/**
 * Counts one use of a link by the request's client address, whatever the link and whether it
 * exists, or throws TOO_MANY_ATTEMPTS (429) with the time to wait: guessing tokens costs the same
 * by viewing or opening, by the page or by tRPC (issue 27 §10).
 */
async function countAddress(ctx: ServiceContext): Promise<void> {
  try {
    await consumeOrThrow([[limiters(ctx.deps).perAddress, ctx.meta.ip]]);
  } catch (error) {
    if (error instanceof AppError && error.code === 'TOO_MANY_ATTEMPTS') {
      throw new AppError('TOO_MANY_ATTEMPTS', { ...error.options, details: { limit: ADDRESS_LIMIT } });
    }
    throw error;
  }
}

const ADDRESS_LIMIT = 'address';
/** Whether a refusal is the address's limit (no link was looked up), not a link's own. */
export const isAddressLimit = (error: AppError) => error.code === 'TOO_MANY_ATTEMPTS' && error.options.details?.limit === ADDRESS_LIMIT;

/** `keyPage.view`: the stay's public view. */
export async function viewKeyPage(ctx: ServiceContext, raw: TKeyPageTokenInput): Promise<TKeyPageViewOutput> {
  await countAddress(ctx);
  return readKeyPage(ctx, raw);
}

/**
 * The stay's public view without counting the address again: for the page shown with an opening's
 * refusal, whose request was counted by `openByKeyPage` already.
 */
export async function readKeyPage(ctx: ServiceContext, raw: TKeyPageTokenInput): Promise<TKeyPageViewOutput> {
  const { deps } = ctx;
  const { token } = ZKeyPageTokenInput.parse(raw);
  const now = new Date();
  const { link, stay, state } = await resolve(deps, token, now);
  const [facts, codes, doors] = await Promise.all([
    deps.prisma.stay.findFirst({
      where: { id: stay.id, hotelId: link.hotelId },
      select: {
        room: { select: { name: true, notice: true } },
        hotel: { select: { name: true, address: true, tel: true, timeZone: true } },
        guests: { select: { mobile: true, isPrimary: true, id: true }, orderBy: { id: 'asc' } },
      },
    }),
    deps.prisma.lockPassword.findMany({
      where: {
        hotelId: link.hotelId,
        stayId: stay.id,
        roomId: stay.roomId,
        // The room's own codes: a shared door's copy (same stay, room and digits) is not another code.
        doorLockId: null,
        deliveryState: 'on_lock',
        removedAt: null,
        code: { not: null },
        OR: [{ validUntil: null }, { validUntil: { gt: now } }],
      },
      orderBy: { validFrom: 'asc' },
      select: { code: true, validFrom: true, validUntil: true },
    }),
    doorsOf(deps, link.hotelId, stay.roomId),
  ]);
  if (!facts) throw notFound();
  const guest = facts.guests.find((g) => g.isPrimary) ?? facts.guests[0];
  return {
    language: await languageForGuest(deps, link.hotelId, guest?.mobile),
    timeZone: facts.hotel.timeZone,
    hotel: { name: facts.hotel.name, address: facts.hotel.address, phone: facts.hotel.tel, mapUrl: mapUrl(facts.hotel.address) },
    room: { name: facts.room.name, notice: facts.room.notice },
    arrival: stay.checkInAt.toISOString(),
    departure: stay.expectedCheckOutAt.toISOString(),
    state,
    codes: codes.map((c) => ({ code: c.code ?? '', validFrom: c.validFrom.toISOString(), validUntil: c.validUntil?.toISOString() ?? null })),
    doors: doors.map((d) => ({ door: d.door, kind: d.kind, name: d.name, canOpen: state === 'in_house' && d.remote })),
  };
}

/**
 * `keyPage.open`: opens the stay's door through its gateway, only while the stay is in house; the
 * client address counted as a view is (KEY_PAGE_ADDRESS_LIMITS), at most KEY_PAGE_OPEN_LIMITS per
 * link, every attempt audited as the link (`lock.openByGuestLink`). Its refusals, each with its own
 * status on the page and in tRPC (issue 27 §10):
 * - NOT_FOUND (404): an unknown, malformed, revoked or ended link, or a door the link does not name;
 * - TOO_MANY_ATTEMPTS (429): the address or the link used too often, with the time to wait;
 * - CONFLICT (409): not open now (the stay has not begun), or the door takes no remote opening;
 * - LOCK_UNREACHABLE (502): the lock, its gateway or the lock cloud did not open it, and why.
 */
export async function openByKeyPage(ctx: ServiceContext, raw: TKeyPageOpenInput): Promise<{ opened: true }> {
  const { deps } = ctx;
  await countAddress(ctx);
  const input = ZKeyPageOpenInput.parse(raw);
  const now = new Date();
  const { link, stay, state } = await resolve(deps, input.token, now);
  const door = (await doorsOf(deps, link.hotelId, stay.roomId)).find((d) => d.door === input.door);
  if (!door) throw notFound();
  if (state !== 'in_house') throw new AppError('CONFLICT', { messageKey: 'keyPage.errors.notInHouse' });
  if (!door.remote || !deps.locks) throw new AppError('CONFLICT', { messageKey: 'keyPage.errors.noGateway' });
  const l = limiters(deps);
  await consumeOrThrow([
    [l.openPerMinute, String(link.id)],
    [l.openPerDay, String(link.id)],
  ]);
  const guestCtx: ServiceContext = { deps, meta: { ...ctx.meta, channel: 'key_page' } };
  try {
    return await openRoomLock(guestCtx, door.room, {
      action: 'lock.openByGuestLink',
      hotelId: link.hotelId,
      after: { keyLinkId: link.id, stayId: stay.id, door: door.door },
    });
  } catch (error) {
    // The lock cloud's refusal or silence (a gateway offline or busy, the lock out of reach): the
    // server could only pass it on, so 502 with the reason, worded for the guest.
    if (error instanceof AppError && error.code === 'LOCK_FAILED') {
      throw new AppError('LOCK_UNREACHABLE', {
        messageKey: 'keyPage.errors.lockFailed',
        params: error.options.params,
        details: error.options.details,
        cause: error,
      });
    }
    throw error;
  }
}
