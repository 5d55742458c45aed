import { ACCESS_RULE_LIMITS, ZFixArrivalInput, type TArrivalFix } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, ServiceContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import { findStay, toStayDto, type StayDto } from '../base/stay-dto';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { notConfirmedCodes, writeOfflineCode } from '../credentials/credential-writer';
import { ruleForRoom, ruleWindow } from '../base/rule-lookup';

/**
 * Offline codes (issue 27, docs/access-rules.md "Offline codes"): a guest never arrives to a code
 * that is not on the lock. A set time before a reservation's check-in (the rule's
 * `offlineCodeMinutes`), a stay whose custom code the lock has not confirmed (its gateway offline,
 * the lock busy or offline, a refusal) and that holds no code on the lock gets a generated code for
 * the same window: TTLock computes it from key data it shares with the lock, so the lock knows it
 * without a gateway (the lock simulator models the same). The custom code is withdrawn in the same
 * transaction (the guest never holds two codes that disagree), and the stay says when and why
 * (`offlineCodeAt`, `offlineCodeReason`); the guest's message follows the new code's confirmation as
 * for any code (modules/messages/on-lock.ts), and the key page shows it.
 */

export async function giveOfflineCodes(ctx: ServiceContext, now = new Date(), scope: { hotelId?: number } = {}): Promise<number> {
  const { deps } = ctx;
  // The offline fallback's test is the credential writer's (credentials/credential-writer.ts).
  const customNotConfirmed = notConfirmedCodes(now);
  const candidates = await deps.prisma.stay.findMany({
    where: {
      ...scope,
      status: 'reserved',
      offlineCodeAt: null,
      checkInAt: { lte: new Date(now.getTime() + ACCESS_RULE_LIMITS.marginMinutesMax * 60_000) },
      expectedCheckOutAt: { gt: now },
      hotel: { accessRules: { some: { enabled: true, offlineCodeMinutes: { gt: 0 } } } },
      // A lock that takes generated codes (Seam's keypads without offline codes do not: the arrival alert tells the desk).
      room: { lock: { hasKeypad: true, offlinePasscodes: true } },
      passwords: { some: customNotConfirmed, none: { doorLockId: null, deliveryState: 'on_lock' } },
    },
    select: { id: true, hotelId: true, roomId: true, checkInAt: true },
    orderBy: { checkInAt: 'asc' },
  });
  let given = 0;
  for (const candidate of candidates) {
    const rule = await ruleForRoom(deps.prisma, candidate.hotelId, candidate.roomId);
    if (!rule.enabled || rule.offlineCodeMinutes === 0) continue;
    if (candidate.checkInAt.getTime() - rule.offlineCodeMinutes * 60_000 > now.getTime()) continue;
    try {
      if (await giveOne(ctx, candidate, customNotConfirmed, now)) given += 1;
    } catch (error) {
      deps.log.error({ err: error, stayId: candidate.id }, 'offline codes: could not give one');
    }
  }
  if (given) deps.log.info({ given }, 'offline codes given in place of codes not on their locks');
  return given;
}

async function giveOne(
  ctx: ServiceContext,
  candidate: { id: number; hotelId: number; roomId: number },
  customNotConfirmed: object,
  now: Date,
  options: { byHand?: boolean } = {},
): Promise<boolean> {
  const { deps } = ctx;
  return transaction(deps, async (tx) => {
    await lockRooms(tx, candidate.hotelId, [candidate.roomId]);
    // Read again under the room's lock: another sweep, the lock's confirmation or the desk may have come first.
    const stay = await tx.stay.findFirst({
      where: {
        id: candidate.id,
        status: 'reserved',
        ...(options.byHand ? {} : { offlineCodeAt: null }),
        // Nothing to do once a code of the stay is on the lock, or an offline code is on its way
        // (two "fix now" at once give one: the second reads the first's under the room's lock).
        passwords: { none: { doorLockId: null, OR: [{ deliveryState: 'on_lock' }, { offline: true, deliveryState: { in: ['pending', 'unknown'] } }] } },
      },
      select: {
        id: true,
        hotelId: true,
        roomId: true,
        checkInAt: true,
        expectedCheckOutAt: true,
        hotel: { select: { timeZone: true } },
        guests: { select: { id: true, name: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], take: 1 },
        passwords: {
          where: customNotConfirmed,
          orderBy: { id: 'asc' },
          select: { id: true, guestId: true, customerId: true, holderName: true, validFrom: true, validUntil: true, lastError: true },
        },
      },
    });
    if (!stay) return false;
    // By hand ("fix now"), a stay the rule gave no code (or whose code is not a custom one) gets one for the rule's window.
    const rule = await ruleForRoom(tx, stay.hotelId, stay.roomId);
    const window = ruleWindow(rule.enabled ? rule : { minutesBeforeCheckIn: 0, minutesAfterCheckOut: 0 }, stay.checkInAt, stay.expectedCheckOutAt);
    const guest = stay.guests[0];
    const failed =
      stay.passwords[0] ??
      (options.byHand
        ? {
            id: 0,
            guestId: guest?.id ?? null,
            customerId: null,
            holderName: guest?.name ?? '',
            validFrom: window.from,
            validUntil: window.until,
            lastError: null,
          }
        : undefined);
    if (!failed) return false;
    const { row: code, withdrawn } = await writeOfflineCode(tx, {
      stay,
      timeZone: stay.hotel.timeZone,
      now,
      instead: failed,
      notConfirmed: customNotConfirmed,
    });
    const reason = failed.lastError ?? 'not_confirmed';
    await tx.stay.update({ where: { id: stay.id }, data: { offlineCodeAt: now, offlineCodeReason: reason.slice(0, 32) } });
    await recordEvent(tx, { hotelId: stay.hotelId, kind: 'credential.changed', roomIds: [stay.roomId], stayId: stay.id });
    await recordAudit(tx, ctx, {
      action: 'stay.offlineCode',
      hotelId: stay.hotelId,
      entityType: 'Stay',
      entityId: stay.id,
      after: {
        reason,
        password: { id: code.id, kind: 'air', validFrom: code.validFrom.toISOString(), validUntil: code.validUntil?.toISOString() ?? null },
        withdrawn,
      },
    });
    followCredentials(tx, deps, stay.hotelId, { stayId: stay.id });
    return true;
  });
}

/**
 * "Fix now" of an arrival without a working key (Today, the board's tile, the managers' e-mail;
 * docs/access-rules.md "Arrivals not ready"): a room whose lock has a keypad that takes generated
 * codes gets an offline code for the stay's window at once, in place of every code of the stay the lock has not confirmed;
 * another gets its failed credentials sent again. For the room's managers (`credential.manage`).
 */
export async function fixArrivalAccess(ctx: AuthedContext, raw: z.input<typeof ZFixArrivalInput>): Promise<{ fix: TArrivalFix; stay: StayDto }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { stayId } = ZFixArrivalInput.parse(raw);
  const stay = await deps.prisma.stay.findFirst({
    where: { id: stayId, hotelId: actor.hotelId, room: roomScope(actor) },
    select: { id: true, hotelId: true, roomId: true, status: true, room: { select: { lock: { select: { hasKeypad: true, offlinePasscodes: true } } } } },
  });
  if (!stay) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  if (stay.status !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'accessRules.errors.notAnArrival' });
  let fix: TArrivalFix = 'nothing';
  // A keypad that takes generated codes gets one; any other lock (a Seam keypad without offline codes) its failed credentials sent again.
  if (stay.room.lock?.hasKeypad && stay.room.lock.offlinePasscodes) {
    const now = new Date();
    if (await giveOne(ctx, stay, notConfirmedCodes(now, { byHand: true }), now, { byHand: true })) fix = 'offline_code';
  } else {
    const retried = await transaction(deps, async (tx) => {
      const again = { hotelId: stay.hotelId, stayId: stay.id, doorLockId: null, deliveryState: 'failed' as const };
      const data = { deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
      const count = (await tx.lockPassword.updateMany({ where: again, data })).count + (await tx.faceAuthorization.updateMany({ where: again, data })).count;
      if (count) {
        await recordEvent(tx, { hotelId: stay.hotelId, kind: 'credential.changed', roomIds: [stay.roomId], stayId: stay.id });
        followCredentials(tx, deps, stay.hotelId, { stayId: stay.id });
      }
      return count;
    });
    if (retried) fix = 'retried';
  }
  // The clerk's "fix now" is audited whatever it found to do (an offline code given is audited as such too).
  await transaction(deps, (tx) => recordAudit(tx, ctx, { action: 'stay.fixAccess', entityType: 'Stay', entityId: stay.id, after: { fix } }));
  return { fix, stay: toStayDto(await findStay(ctx, stay.id), new Date()) };
}
