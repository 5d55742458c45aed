import { ZCardConfirmInput, ZCardIssueIdInput, type TCardConfirmInput } from '@console/shared';
import type { z } from 'zod';
import type { Actor, AuthedContext } from '../../context';
import { afterCommit } from '../../db/events';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { findStay, requireActive } from '../base/stay-dto';
import { endIssues } from './card-end';
import { findIssue, toDto, type CardIssueDto } from './card-dto';
import { writeCardGrants } from '../credentials/credential-writer';
import { recordEvent } from '../../db/events';

/**
 * Who writes a card at the desk: a member who manages credentials; the housekeeping supervisor
 * (housekeeping.manage) an attendant's card only (modules/housekeeping/attendant-card.ts). Without
 * `issue`, whether the actor may write any card at all.
 */
function requireCardWriter(actor: Actor, issue?: { attendantId: number | null }): void {
  if (actor.permissions.has('credential.manage')) return;
  requirePermission(actor, 'housekeeping.manage');
  if (issue && issue.attendantId === null) throw new AppError('FORBIDDEN');
}

/**
 * Step two: the card as the desk reader read it back after writing. Exactly what was reserved, for
 * the same UID: the card is issued (a *new* room card ends the room's earlier cards: they are
 * denylisted on the lock, and the lock refuses them anyway once it has seen the new one). Anything
 * else: the reservation is voided and no card counts as issued.
 */
export async function confirmCard(ctx: AuthedContext, raw: TCardConfirmInput): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requireCardWriter(actor);
  const input = ZCardConfirmInput.parse(raw);
  const now = new Date();
  const outcome = await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, input.issueId, tx);
    requireCardWriter(actor, issue);
    const row = await tx.cardIssue.findUniqueOrThrow({
      where: { id: issue.id },
      select: {
        blocks: true,
        state: true,
        roomId: true,
        stayId: true,
        guestId: true,
        roomIds: true,
        doorLockIds: true,
        validFrom: true,
        validUntil: true,
        replacesId: true,
      },
    });
    if (row.state !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notReserved' });
    const reserved = (row.blocks as { block: number; data: string }[] | null) ?? [];
    const written = new Map(input.blocks.map((b) => [b.block, b.data]));
    // The data blocks must read back the same (the trailer's keys read back as zeros on real cards).
    const same = input.uid === issue.uid && reserved.filter((b) => b.block % 4 !== 3).every((b) => written.get(b.block) === b.data);
    if (!same) {
      await tx.cardIssue.update({ where: { id: issue.id }, data: { state: 'voided', endReason: 'write_failed', endedAt: now } });
      await recordAudit(tx, ctx, { action: 'card.write_failed', entityType: 'CardIssue', entityId: issue.id });
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds: [row.roomId, ...row.roomIds], stayId: row.stayId ?? undefined });
      return 'mismatch' as const;
    }
    if (row.stayId !== null) {
      await lockRooms(tx, actor.hotelId, [row.roomId!]);
      requireActive(await findStay(ctx, row.stayId, tx), now);
    }
    // A rewrite: the card's earlier writing ends now (its card id denylisted), not before.
    if (row.replacesId !== null) await endIssues(tx, { id: row.replacesId, hotelId: actor.hotelId, cardId: issue.cardId, state: 'issued' }, 'rewritten', now);
    await tx.cardIssue.update({ where: { id: issue.id }, data: { state: 'issued', issuedAt: now } });
    // On its rooms' locks from now on: one grant per room, and one per shared door it names (on the
    // door's lock, of its room): a data card has nothing to push; its end denylists it there.
    const targets = [
      ...row.roomIds.map((roomId) => ({ roomId, doorLockId: null })),
      ...(row.roomId === null ? [] : row.doorLockIds.map((doorLockId) => ({ roomId: row.roomId!, doorLockId }))),
    ];
    await writeCardGrants(
      tx,
      targets.map(({ roomId, doorLockId }) => ({
        hotelId: actor.hotelId,
        cardId: issue.cardId,
        issueId: issue.id,
        medium: 'data' as const,
        roomId,
        doorLockId,
        stayId: row.stayId,
        guestId: row.guestId,
        validFrom: row.validFrom,
        validUntil: row.validUntil,
        deliveryState: 'on_lock' as const,
        deliveredAt: now,
        // What the lock knows it by: the card id written on it (its removal denylists that).
        providerRef: `C${issue.id}`,
      })),
    );
    if (issue.kind === 'room' && !issue.duplicate)
      await endIssues(
        tx,
        {
          hotelId: actor.hotelId,
          kind: 'room',
          roomId: row.roomId!,
          state: 'issued',
          id: { not: issue.id },
          OR: [{ generation: { lt: issue.generation! } }, { generation: null }],
        },
        'replaced',
        now,
      );
    if (issue.attendantId !== null && issue.attendantDay !== null) {
      // An attendant's card (docs/housekeeping-keys.md "Cards"): her other cards of the day end with it.
      await endIssues(
        tx,
        { hotelId: actor.hotelId, attendantId: issue.attendantId, attendantDay: issue.attendantDay, state: 'issued', id: { not: issue.id } },
        'replaced',
        now,
      );
      // The rota may have changed since the card was reserved (a room given to another): once this
      // commits, the rota's job brings the new card in line with it, as after any change of the rota.
      const rota = { hotelId: actor.hotelId, membershipId: issue.attendantId, day: issue.attendantDay.toISOString().slice(0, 10) };
      afterCommit(tx, `rota-keys:${rota.hotelId}:${rota.membershipId}:${rota.day}`, async () => {
        await deps.queues.rotaKeys.add('sync', rota);
      });
    }
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, { action: 'card.issue', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber: issue.card.cardNumber } });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds: [row.roomId, ...row.roomIds], stayId: row.stayId ?? undefined });
    return 'issued' as const;
  });
  if (outcome === 'mismatch') throw new AppError('VALIDATION', { messageKey: 'cards.errors.readBackMismatch' });
  return toDto(await findIssue(ctx, input.issueId));
}

/** Gives up a reservation whose card was not written (the write failed in the browser): nothing was issued. */
export async function voidReservation(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requireCardWriter(actor);
  const { issueId } = ZCardIssueIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    requireCardWriter(actor, issue);
    if (issue.state !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notReserved' });
    const row = await tx.cardIssue.update({
      where: { id: issue.id },
      data: { state: 'voided', endReason: 'write_failed', endedAt: new Date() },
      select: { roomId: true, roomIds: true, stayId: true },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds: [row.roomId, ...row.roomIds], stayId: row.stayId ?? undefined });
  });
  return toDto(await findIssue(ctx, issueId));
}
