import { ZCardIssueIdInput, ZCardLookupInput, type TCardIssueState } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { LIVE_DELIVERY_STATES, revoke, type TRevokeReason } from '../credentials/delivery-states';
import { findIssue, openKeysOf, toDto, visibleIssues, type CardIssueDto } from './card-dto';
import { recordEvent } from '../../db/events';

/** The end of a card's writing: handed back, reported lost, revoked by hand, or ended by what replaced it. */

/**
 * Ends issued cards matching `where`: each one's grants are taken off their locks (a data card
 * denylisted by the card id written on it), and the writing is `ended` (or `returned`, `lost`).
 */
export async function endIssues(tx: Tx, where: Prisma.CardIssueWhereInput, reason: TRevokeReason | 'returned' | 'lost', now: Date): Promise<number> {
  const issues = await tx.cardIssue.findMany({ where, select: { id: true } });
  if (!issues.length) return 0;
  const ids = issues.map((i) => i.id);
  const state: TCardIssueState = reason === 'returned' ? 'returned' : reason === 'lost' ? 'lost' : 'ended';
  await tx.cardIssue.updateMany({ where: { id: { in: ids } }, data: { state, endReason: reason, endedAt: now } });
  await tx.cardGrant.updateMany({ where: { issueId: { in: ids }, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data: revoke(reason as TRevokeReason) });
  return ids.length;
}

/**
 * A card handed back at the desk (withdrawal, `passenger/deleteCardByCardId`): its writing is
 * returned and taken off its locks; the browser then clears its sector. The card can be written
 * again for the next guest.
 */
export async function returnCard(
  ctx: AuthedContext,
  raw: z.input<typeof ZCardLookupInput>,
): Promise<{ issue: CardIssueDto; clear: { block: number; data: string }[]; openKeys: string[] }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { cardNumber } = ZCardLookupInput.parse(raw);
  const now = new Date();
  const issueId = await transaction(deps, async (tx) => {
    const issue = await tx.cardIssue.findFirst({
      where: { ...visibleIssues(ctx), card: { cardNumber }, state: 'issued' },
      select: { id: true, roomId: true, card: { select: { cardNumber: true } } },
      orderBy: { id: 'desc' },
    });
    if (!issue) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'returned', now);
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, { action: 'card.return', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber } });
    return issue.id;
  });
  const issue = await findIssue(ctx, issueId);
  const sector =
    Math.floor(
      ((await deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: issueId }, select: { blocks: true } })).blocks as { block: number }[] | null)?.[0]
        ?.block ?? 4,
    ) / 4;
  return { issue: toDto(issue), clear: [0, 1, 2].map((i) => ({ block: sector * 4 + i, data: '0'.repeat(32) })), openKeys: await openKeysOf(ctx) };
}

/** A card reported lost: refused on its locks from now on (denylisted), and never written again. */
export async function reportCardLost(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { issueId } = ZCardIssueIdInput.parse(raw);
  const now = new Date();
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    if (issue.state !== 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'lost', now);
    await tx.card.update({ where: { id: issue.cardId }, data: { lostAt: now } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, { action: 'card.lost', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber: issue.card.cardNumber } });
  });
  return toDto(await findIssue(ctx, issueId));
}

/** Revokes an issued card by hand (its grants denylisted), e.g. a staff member's card. */
export async function revokeCard(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { issueId } = ZCardIssueIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    if (issue.state !== 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'manual', new Date());
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, { action: 'card.revoke', entityType: 'CardIssue', entityId: issue.id });
  });
  return toDto(await findIssue(ctx, issueId));
}
