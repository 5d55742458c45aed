import { ZCardEncodeInput, ZCardEncodersInput, type TCardEncodeInput } from '@console/shared';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { providerForLock } from '../lock-cloud/account-provider';
import { roomScope } from '../base/room-access';
import { LOCK_REF_SELECT } from '../base/lock-ref';
import { findStay, requireActive } from '../base/stay-dto';
import { writeCardGrants } from '../credentials/credential-writer';
import { followCredentials, RELEASE_SCRIPT } from '../credentials/delivery';
import { doorsServingRooms } from '../credentials/door-copies';
import { endIssues } from './card-end';
import { findIssue, toDto, type CardIssueDto } from './card-dto';
import { lockFailed } from '../base/lock-failure';

/**
 * A room card of a hotel card system (Seam `acs`: ASSA ABLOY Visionline, Salto, dormakaba;
 * docs/seam.md "Card systems"), encoded at the desk on one of the system's encoders: the door of the
 * room is an entrance of the system (`Lock.encodedCards`), and so may be the shared doors serving
 * it. The system writes the card; the console records it as a writing of the medium `encoded`, on
 * its doors from then on (one grant a door, all with the card's ref), and its stay's end takes it
 * off the system (card-delivery.ts). Nothing is written when the encoding fails, and nothing is left
 * in the system (acs.ts).
 */

/** What failed, said with the platform's reason: the encoders' list, or the card. */
type Failing = 'cards.encode.encodersFailed' | 'cards.encode.failed';

/** The room's door, when it is a card system's, and the adapter of its account. */
async function cardSystemDoor(ctx: AuthedContext, roomId: number, failing: Failing) {
  const room = await ctx.deps.prisma.room.findFirst({
    where: { id: roomId, ...roomScope(ctx.actor) },
    select: { id: true, name: true, lock: { select: { ...LOCK_REF_SELECT, encodedCards: true } } },
  });
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
  if (!room.lock || room.lock.goneAt) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_lock' });
  if (!room.lock.encodedCards) throw new AppError('CONFLICT', { messageKey: 'cards.encode.notCardSystem', params: { room: room.name } });
  if (!ctx.deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  let provider: LockProvider;
  try {
    provider = await providerForLock(ctx.deps, room.lock);
  } catch (error) {
    throw platformFailed(error, failing);
  }
  if (!provider.listCardEncoders || !provider.encodeCard)
    throw new AppError('CONFLICT', { messageKey: 'cards.encode.notCardSystem', params: { room: room.name } });
  return { room, lock: room.lock, provider };
}

/** A platform's refusal as the desk's error, with its translated reason. */
function platformFailed(error: unknown, failing: Failing): unknown {
  if (!(error instanceof LockProviderError)) return error;
  return lockFailed(error, failing);
}

/**
 * How long an encoder is held for one card at most: the system's calls and the encoding's action
 * attempt waited for (15 s), with room to spare. Released as soon as the card is recorded or refused.
 */
const ENCODER_HOLD_MS = 60_000;

/**
 * One card at a time on an encoder: a second request for the same encoder (a double press, two desks
 * sharing it) while one encodes is refused at once (CONFLICT), never sent to the system, which would
 * write the card on the encoder again and leave the first credential on no card.
 */
async function holdingEncoder<T>(ctx: AuthedContext, accountId: number | null, encoderId: string, fn: () => Promise<T>): Promise<T> {
  const key = ctx.deps.key('card-encoder', accountId ?? 0, encoderId);
  const owner = randomUUID();
  if (!(await ctx.deps.redis.set(key, owner, 'PX', ENCODER_HOLD_MS, 'NX'))) throw new AppError('CONFLICT', { messageKey: 'cards.encode.encoderBusy' });
  try {
    return await fn();
  } finally {
    await ctx.deps.redis.eval(RELEASE_SCRIPT, 1, key, owner);
  }
}

/** The encoders of the card system of a room's door, for the desk to choose one. */
export async function listCardEncoders(ctx: AuthedContext, raw: z.input<typeof ZCardEncodersInput>): Promise<{ items: { id: string; name: string }[] }> {
  requirePermission(ctx.actor, 'credential.manage');
  const { roomId } = ZCardEncodersInput.parse(raw);
  const { provider } = await cardSystemDoor(ctx, roomId, 'cards.encode.encodersFailed');
  try {
    const encoders = await provider.listCardEncoders!();
    return { items: encoders.map((e) => ({ id: e.encoderId, name: e.name })) };
  } catch (error) {
    throw platformFailed(error, 'cards.encode.encodersFailed');
  }
}

/**
 * Encodes a room card of an active stay on the chosen encoder: valid from its check-in (or now) to
 * its expected check-out, for the room's door and the card-system doors serving the room. The
 * system is asked outside any transaction (the desk holds the card meanwhile); the stay is checked
 * again before the card is recorded, and a stay that ended meanwhile takes the card off again.
 */
export async function encodeRoomCard(ctx: AuthedContext, raw: TCardEncodeInput): Promise<CardIssueDto> {
  const { actor } = ctx;
  requirePermission(actor, 'credential.manage');
  requirePermission(actor, 'stay.manage');
  const input = ZCardEncodeInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, now);
  const { lock, provider } = await cardSystemDoor(ctx, stay.roomId, 'cards.encode.failed');
  if (input.replaces !== undefined) await replacedCard(ctx, stay.id, input.replaces);
  return holdingEncoder(ctx, lock.accountId, input.encoderId, () =>
    encodeOnEncoder(ctx, { stay, lock, provider, encoderId: input.encoderId, replaces: input.replaces }, now),
  );
}

/** The card a new encoding replaces: an issued encoded card of the same stay (else CONFLICT, before anything is encoded). */
async function replacedCard(ctx: AuthedContext, stayId: number, issueId: number, tx?: Tx): Promise<void> {
  const found = await (tx ?? ctx.deps.prisma).cardIssue.findFirst({
    where: { id: issueId, hotelId: ctx.actor.hotelId, stayId, medium: 'encoded', state: 'issued' },
    select: { id: true },
  });
  if (!found) throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
}

/** The encoding itself, the encoder held (encodeRoomCard). */
async function encodeOnEncoder(
  ctx: AuthedContext,
  {
    stay,
    lock,
    provider,
    encoderId,
    replaces,
  }: {
    stay: Awaited<ReturnType<typeof findStay>>;
    lock: Awaited<ReturnType<typeof cardSystemDoor>>['lock'];
    provider: LockProvider;
    encoderId: string;
    replaces: number | undefined;
  },
  now: Date,
): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  const validFrom = stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now;
  const validUntil = stay.expectedCheckOutAt;
  if (validUntil.getTime() <= now.getTime()) throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart' });
  // The shared doors serving the room that are doors of a card system too (others take no such card).
  const served = (await doorsServingRooms(deps.prisma, actor.hotelId, [stay.roomId])).get(stay.roomId) ?? [];
  const doors = served.length
    ? await deps.prisma.lock.findMany({
        where: { id: { in: served }, hotelId: actor.hotelId, accountId: lock.accountId, encodedCards: true, goneAt: null },
        select: { id: true, providerLockId: true },
        orderBy: { id: 'asc' },
      })
    : [];
  const holderName = stay.guests[0]?.name ?? '';
  let card: { ref: string; cardNumber: string };
  try {
    card = await provider.encodeCard!({
      doorIds: [lock.providerLockId, ...doors.map((d) => d.providerLockId)],
      encoderId,
      name: holderName,
      startAt: validFrom,
      endAt: validUntil,
    });
  } catch (error) {
    throw platformFailed(error, 'cards.encode.failed');
  }
  let issueId: number;
  try {
    issueId = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [stay.roomId]);
      requireActive(await findStay(ctx, stay.id, tx), new Date());
      const row = await tx.card.upsert({
        where: { hotelId_cardNumber: { hotelId: actor.hotelId, cardNumber: card.cardNumber } },
        create: { hotelId: actor.hotelId, cardNumber: card.cardNumber, kind: 'room' },
        update: {},
        select: { id: true },
      });
      // The card it replaces (checked again: another desk may have ended it meanwhile), and the same
      // card encoded again: they hold the new writing only, and come off the system.
      if (replaces !== undefined) {
        await replacedCard(ctx, stay.id, replaces, tx);
        await endIssues(tx, { id: replaces, hotelId: actor.hotelId }, 'rewritten', now);
      }
      await endIssues(tx, { hotelId: actor.hotelId, cardId: row.id, state: 'issued' }, 'rewritten', now);
      followCredentials(tx, deps, actor.hotelId);
      const issue = await tx.cardIssue.create({
        data: {
          hotelId: actor.hotelId,
          cardId: row.id,
          kind: 'room',
          medium: 'encoded',
          state: 'issued',
          roomId: stay.roomId,
          stayId: stay.id,
          guestId: stay.guests[0]?.id ?? null,
          roomIds: [stay.roomId],
          doorLockIds: doors.map((d) => d.id),
          uid: '',
          validFrom,
          validUntil,
          holderName,
          issuedAt: now,
          createdById: actor.accountId,
        },
        select: { id: true },
      });
      const base = {
        hotelId: actor.hotelId,
        cardId: row.id,
        issueId: issue.id,
        medium: 'encoded' as const,
        roomId: stay.roomId,
        stayId: stay.id,
        guestId: stay.guests[0]?.id ?? null,
        validFrom,
        validUntil,
        deliveryState: 'on_lock' as const,
        deliveredAt: now,
        providerRef: card.ref,
      };
      await writeCardGrants(tx, [{ ...base, doorLockId: null }, ...doors.map((d) => ({ ...base, doorLockId: d.id }))]);
      await recordAudit(tx, ctx, {
        action: 'card.encode',
        entityType: 'CardIssue',
        entityId: issue.id,
        after: {
          cardNumber: card.cardNumber,
          stayId: stay.id,
          doors: doors.map((d) => d.id),
          validFrom: validFrom.toISOString(),
          validUntil: validUntil.toISOString(),
        },
      });
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds: [stay.roomId], stayId: stay.id });
      return issue.id;
    });
  } catch (error) {
    // Not recorded (the stay ended meanwhile, or the database failed): the card comes off the system again.
    await provider
      .deleteCard(lock.providerLockId, card.ref)
      .catch((e: unknown) => deps.log.warn({ err: e, stayId: stay.id }, 'an encoded card not recorded stayed in its card system'));
    throw error;
  }
  return toDto(await findIssue(ctx, issueId));
}
