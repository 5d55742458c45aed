import { ZCardSendInput, type TCardSendInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { findIssue, LIVE_ISSUE_STATES, toDto, type CardIssueDto } from './card-dto';
import { cardTarget } from './card-rooms';
import { writeCardGrants } from '../credentials/credential-writer';
import { recordEvent } from '../../db/events';

/**
 * A card sent over the air (`room/sendCard`): its number pushed to its rooms' locks through the
 * gateway (TTLock identityCard/add, addType 2) by the delivery engine, for a stay (valid for the
 * stay, ended with it) or for rooms and a period. Nothing is written on the card: the lock knows
 * it by its number. A card still issued, or reported lost, is refused as for a written card.
 */
export async function sendCard(ctx: AuthedContext, raw: TCardSendInput): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZCardSendInput.parse(raw);
  const now = new Date();
  const issueId = await transaction(deps, async (tx) => {
    const { stay, roomIds, validFrom, validUntil } = await cardTarget(
      ctx,
      tx,
      { stayId: input.stayId, roomIds: input.roomIds, validFrom: input.validFrom, validUntil: input.validUntil },
      now,
    );
    const card = await tx.card.upsert({
      where: { hotelId_cardNumber: { hotelId: actor.hotelId, cardNumber: input.cardNumber } },
      create: { hotelId: actor.hotelId, cardNumber: input.cardNumber, kind: input.kind },
      update: {},
      select: { id: true, lostAt: true, uid: true },
    });
    if (card.lostAt) throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardLost' });
    const live = await tx.cardIssue.findFirst({
      where: { hotelId: actor.hotelId, cardId: card.id, state: { in: [...LIVE_ISSUE_STATES] } },
      select: { id: true, state: true, room: { select: { name: true } }, holderName: true },
    });
    if (live?.state === 'issued')
      throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardInUse', params: { room: live.room?.name ?? '', holder: live.holderName } });
    if (live) await tx.cardIssue.update({ where: { id: live.id }, data: { state: 'voided', endReason: 'write_failed', endedAt: now } });
    const holderName = stay?.guests[0]?.name ?? input.note;
    const issue = await tx.cardIssue.create({
      data: {
        hotelId: actor.hotelId,
        cardId: card.id,
        kind: input.kind,
        medium: 'number',
        state: 'issued',
        roomId: stay?.roomId ?? (input.kind === 'room' ? roomIds[0]! : null),
        stayId: stay?.id ?? null,
        guestId: stay?.guests[0]?.id ?? null,
        roomIds,
        uid: card.uid ?? BigInt(input.cardNumber).toString(16).toUpperCase().padStart(8, '0').slice(-8),
        validFrom,
        validUntil,
        holderName,
        note: input.note,
        issuedAt: now,
        createdById: actor.accountId,
      },
      select: { id: true },
    });
    await writeCardGrants(
      tx,
      roomIds.map((roomId) => ({
        hotelId: actor.hotelId,
        cardId: card.id,
        issueId: issue.id,
        medium: 'number' as const,
        roomId,
        stayId: stay?.id ?? null,
        guestId: stay?.guests[0]?.id ?? null,
        validFrom,
        validUntil,
      })),
    );
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, {
      action: 'card.send',
      entityType: 'CardIssue',
      entityId: issue.id,
      after: {
        cardNumber: input.cardNumber,
        rooms: roomIds,
        stayId: stay?.id ?? null,
        validFrom: validFrom.toISOString(),
        validUntil: validUntil?.toISOString() ?? null,
      },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds, stayId: stay?.id });
    return issue.id;
  });
  return toDto(await findIssue(ctx, issueId));
}
