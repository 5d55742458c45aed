import { passwordValidity, type TCredentialMoveOutcome, type TPasswordKind, type TUndeliverableReason } from '@console/shared';
import type { Tx } from '../../db/transaction';
import { revokeStayCredentials } from '../credentials/revocation';
import { writeCardGrant, writePassword } from '../credentials/credential-writer';
import { LIVE_DELIVERY_STATES, revoke } from '../credentials/delivery-states';

/**
 * A room change moves the guest's keys (issue 17 §2; docs/credential-delivery.md, "Room change"):
 * what the old stay holds on the old room's lock is taken off it (`room_change`), and issued on the
 * new room's lock for the rest of the stay, in the room change's transaction; the delivery engine
 * then makes both locks agree, and the console follows what each lock confirmed.
 *
 * - A custom code keeps its digits on the new lock. If another credential of ours already holds
 *   that code on the new lock, nothing is issued in its place (`code_taken`): the desk is told and
 *   decides. If the new lock itself refuses it (a code put there at the keypad), its delivery fails
 *   with `duplicate_code`, which the console shows: never a code silently swapped for another.
 * - A generated or one-time code cannot be chosen: a new one is issued on the new lock (its row
 *   names the one it replaces, `replacesId`), and the desk gives the guest the code the lock cloud
 *   made (`new_code`).
 * - A face is authorised on the new lock (`moved`), unless it already is (`already_there`).
 * - A card sent over the air (its number on the lock) is sent to the new lock (`moved`): a new
 *   writing of the same card for the new stay, its old one ended with the old room.
 * - A card with data written on it names the old room's lock: it ends (`ended`, denylisted on the
 *   old lock) and the desk writes the new room's cards.
 *
 * Every lock is the new room's Lock row of the hotel (a composite key keeps it in the hotel). A room
 * without a paired lock, a lock without what the credential needs, or a lock gone from its account:
 * the credential is recorded for the new stay as failed with the reason (`blocked`), said at once and
 * retried by hand once the room has its lock; never dropped.
 */

export interface CredentialMoveDto {
  kind: 'password' | 'face' | 'card';
  /** The credential of the old stay: a password, a face authorisation, or a card's writing (CardIssue). */
  fromId: number;
  /** The credential made for the new stay (same kinds), or null when none was. */
  toId: number | null;
  outcome: TCredentialMoveOutcome;
  /** Known before any attempt: the new room's lock cannot take it (the credential is recorded as failed with this reason). */
  blocked: TUndeliverableReason | null;
  holderName: string;
  /** Passwords: their kind; a custom code's digits (null for a generated one: the lock cloud makes the new code). */
  passwordKind: TPasswordKind | null;
  code: string | null;
  /** Cards: the card's number. */
  cardNumber: string | null;
  /** Faces: the hotel's face id. */
  faceId: string | null;
}

export interface MoveInput {
  hotelId: number;
  timeZone: string;
  accountId: number | null;
  fromStayId: number;
  toStayId: number;
  targetRoomId: number;
  /** When the new stay begins: now, or a reservation's check-in. */
  from: Date;
  /** A reservation moved to new dates as well: its credentials end then (the caller applies the rule's margins), not at their old end. */
  until?: Date;
  /** The old stay's guests -> the new stay's (a credential follows its guest). */
  guestIds: ReadonlyMap<number, number>;
  now: Date;
}

const notExpired = (now: Date) => ({ OR: [{ validUntil: null }, { validUntil: { gt: now } }] });
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
/** A credential's end on the new stay: its own, or the new dates' when the stay moved to them (a credential without an end keeps none). */
const endOn = (input: MoveInput, validUntil: Date | null) => (validUntil && input.until ? input.until : validUntil);
const floorMinute = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);

/** What a room's lock can take, resolved through the room's Lock row of the hotel: the reason a credential of `need` cannot reach it, or null. */
async function lockRule(tx: Tx, hotelId: number, roomId: number): Promise<(need: 'keypad' | 'cardReader' | 'faceModule') => TUndeliverableReason | null> {
  const room = await tx.room.findFirst({
    where: { id: roomId, hotelId },
    select: { lock: { select: { hasKeypad: true, hasCardReader: true, hasFaceModule: true, goneAt: true } } },
  });
  const lock = room?.lock ?? null;
  return (need) => {
    if (!lock) return 'no_lock';
    if (lock.goneAt) return 'lock_not_found';
    const has = need === 'keypad' ? lock.hasKeypad : need === 'cardReader' ? lock.hasCardReader : lock.hasFaceModule;
    return has ? null : 'not_supported';
  };
}

/** A credential the lock cannot take: recorded failed with the reason, no attempt made (retried by hand once it can). */
const failedFor = (reason: TUndeliverableReason | null) => (reason ? { deliveryState: 'failed' as const, lastError: reason } : {});

/**
 * Moves the old stay's credentials to the new stay's room, inside the room change's transaction
 * (both rooms locked by the caller). Returns what happened to each, and how many credentials of the
 * old stay were taken off its lock.
 */
export async function moveStayCredentials(tx: Tx, input: MoveInput): Promise<{ moves: CredentialMoveDto[]; revoked: number }> {
  const { hotelId, fromStayId, toStayId, targetRoomId, from, now } = input;
  // Room credentials only: their shared-door copies follow them (docs/shared-doors.md).
  const live = { hotelId, stayId: fromStayId, doorLockId: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, ...notExpired(now) };
  // What the guest holds now, read under the rooms' locks before any of it is revoked.
  const passwords = await tx.lockPassword.findMany({
    where: live,
    select: { id: true, kind: true, code: true, holderName: true, guestId: true, customerId: true, accountId: true, validFrom: true, validUntil: true },
    orderBy: { id: 'asc' },
  });
  const faces = await tx.faceAuthorization.findMany({
    where: live,
    select: { id: true, faceId: true, note: true, validFrom: true, validUntil: true, face: { select: { faceId: true, note: true } } },
    orderBy: { id: 'asc' },
  });
  const issued = { hotelId, stayId: fromStayId, state: 'issued' as const };
  const numberCards = await tx.cardIssue.findMany({
    where: { ...issued, medium: 'number', ...notExpired(now) },
    select: {
      id: true,
      cardId: true,
      kind: true,
      uid: true,
      guestId: true,
      holderName: true,
      note: true,
      validFrom: true,
      validUntil: true,
      card: { select: { cardNumber: true } },
    },
    orderBy: { id: 'asc' },
  });
  const writtenCards = await tx.cardIssue.findMany({
    where: { ...issued, medium: 'data' },
    select: { id: true, holderName: true, card: { select: { cardNumber: true } } },
    orderBy: { id: 'asc' },
  });

  // Off the old room's lock: every live credential of the old stay (written cards denylisted there).
  const revoked = await revokeStayCredentials(tx, hotelId, { stayId: fromStayId }, 'room_change');

  const blockedBy = await lockRule(tx, hotelId, targetRoomId);
  const guestOf = (id: number | null) => (id === null ? null : (input.guestIds.get(id) ?? null));
  const moves: CredentialMoveDto[] = [];
  const none = { cardNumber: null, faceId: null };

  for (const p of passwords) {
    const base = {
      kind: 'password' as const,
      fromId: p.id,
      holderName: p.holderName,
      passwordKind: p.kind,
      code: p.kind === 'custom' ? p.code : null,
      ...none,
    };
    const blocked = blockedBy('keypad');
    const validity = passwordValidity(p.kind, later(p.validFrom, from), endOn(input, p.validUntil), input.timeZone);
    // The same code twice on one lock cannot work: the writer writes none, said, and nothing is issued in its place.
    const row = await writePassword(
      tx,
      {
        hotelId,
        roomId: targetRoomId,
        stayId: toStayId,
        guestId: guestOf(p.guestId),
        customerId: p.customerId,
        accountId: p.accountId,
        createdByAccountId: input.accountId,
        kind: p.kind,
        holderName: p.holderName,
        code: p.kind === 'custom' ? p.code : null,
        // A generated code is never the same on another lock: the new one names the one it replaces.
        replacesId: p.kind === 'custom' ? null : p.id,
        ...validity,
        ...failedFor(blocked),
      },
      { onTaken: 'skip' },
    );
    if (!row) {
      moves.push({ ...base, toId: null, outcome: 'code_taken', blocked: null });
      continue;
    }
    moves.push({ ...base, toId: row.id, outcome: p.kind === 'custom' ? 'same_code' : 'new_code', blocked });
  }

  for (const a of faces) {
    const base = { kind: 'face' as const, fromId: a.id, holderName: a.face.note, passwordKind: null, code: null, cardNumber: null, faceId: a.face.faceId };
    // The face row first, as authorising a face does: its deletion cannot cross this.
    await tx.$queryRaw`SELECT "id" FROM "Face" WHERE "hotelId" = ${hotelId} AND "id" = ${a.faceId} FOR UPDATE`;
    const there = await tx.faceAuthorization.findMany({
      where: { hotelId, faceId: a.faceId, roomId: targetRoomId, doorLockId: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] } },
      select: { id: true, validUntil: true },
    });
    if (there.some((t) => t.validUntil === null || t.validUntil.getTime() > now.getTime())) {
      moves.push({ ...base, toId: null, outcome: 'already_there', blocked: null });
      continue;
    }
    // One whose time is over makes way (the lock refuses it anyway; it comes off).
    if (there.length) await tx.faceAuthorization.updateMany({ where: { id: { in: there.map((t) => t.id) } }, data: revoke('replaced') });
    const blocked = blockedBy('faceModule');
    const row = await tx.faceAuthorization.create({
      data: {
        hotelId,
        faceId: a.faceId,
        roomId: targetRoomId,
        stayId: toStayId,
        note: a.note,
        validFrom: floorMinute(later(a.validFrom, from)),
        validUntil: endOn(input, a.validUntil),
        ...failedFor(blocked),
      },
      select: { id: true },
    });
    moves.push({ ...base, toId: row.id, outcome: 'moved', blocked });
  }

  for (const c of numberCards) {
    const base = { kind: 'card' as const, fromId: c.id, holderName: c.holderName, passwordKind: null, code: null, cardNumber: c.card.cardNumber, faceId: null };
    // Its old writing ended with the old room (above): the card is written anew for the new stay's room.
    const blocked = blockedBy('cardReader');
    const validFrom = later(c.validFrom, from);
    const guestId = guestOf(c.guestId);
    const issue = await tx.cardIssue.create({
      data: {
        hotelId,
        cardId: c.cardId,
        kind: c.kind,
        medium: 'number',
        state: 'issued',
        roomId: targetRoomId,
        stayId: toStayId,
        guestId,
        roomIds: [targetRoomId],
        uid: c.uid,
        validFrom,
        validUntil: endOn(input, c.validUntil),
        holderName: c.holderName,
        note: c.note,
        issuedAt: now,
        createdById: input.accountId,
      },
      select: { id: true },
    });
    await writeCardGrant(tx, {
      hotelId,
      cardId: c.cardId,
      issueId: issue.id,
      medium: 'number',
      roomId: targetRoomId,
      stayId: toStayId,
      guestId,
      validFrom,
      validUntil: endOn(input, c.validUntil),
      ...failedFor(blocked),
    });
    moves.push({ ...base, toId: issue.id, outcome: 'moved', blocked });
  }

  for (const c of writtenCards) {
    moves.push({
      kind: 'card',
      fromId: c.id,
      toId: null,
      outcome: 'ended',
      blocked: null,
      holderName: c.holderName,
      passwordKind: null,
      code: null,
      cardNumber: c.card.cardNumber,
      faceId: null,
    });
  }
  return { moves, revoked };
}
