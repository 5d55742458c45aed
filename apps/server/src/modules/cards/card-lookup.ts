import { ZCardIssueIdInput, ZCardListInput, ZCardLookupInput, type TCardListInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { containsExactly, containsText, searchText } from '../../db/search';
import type { Prisma } from '../../generated/prisma/client';
import { requirePermission } from '../../permissions';
import { findRoom } from '../base/room-access';
import { findIssue, issueSelect, toDto, visibleIssues, type CardIssueDto } from './card-dto';

/** Reading cards: one read at the desk, the list of a room, a stay or a kind, one by id. */

export interface CardLookupDto {
  cardNumber: string;
  /** The card's live writing, when it has one. */
  issue: CardIssueDto | null;
  /** The guest it was issued to (spec §4: the guest page), when it is a room card of a stay. */
  guest: { id: number; name: string; stayId: number; roomId: number; roomName: string; otherInformation: string } | null;
}

/**
 * A card read at the desk (spec §4, `passenger/getRoomInfo` with card_num): its live writing and
 * the guest it belongs to. A card of another hotel, or of rooms the actor does not see, is not
 * found like any unknown card.
 */
export async function lookupCard(ctx: AuthedContext, raw: z.input<typeof ZCardLookupInput>): Promise<CardLookupDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const { cardNumber } = ZCardLookupInput.parse(raw);
  const issue = await deps.prisma.cardIssue.findFirst({
    where: { ...visibleIssues(ctx), card: { cardNumber }, state: 'issued' },
    select: issueSelect,
    orderBy: { id: 'desc' },
  });
  if (!issue) return { cardNumber, issue: null, guest: null };
  let guest: CardLookupDto['guest'] = null;
  if (issue.stayId !== null) {
    const stay = await deps.prisma.stay.findFirst({
      where: { id: issue.stayId, hotelId: actor.hotelId },
      select: {
        id: true,
        roomId: true,
        remark: true,
        room: { select: { name: true } },
        guests: { select: { id: true, name: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], take: 1 },
      },
    });
    const first = stay?.guests[0];
    if (stay && first)
      guest = { id: first.id, name: first.name, stayId: stay.id, roomId: stay.roomId, roomName: stay.room.name, otherInformation: stay.remark };
  }
  return { cardNumber, issue: toDto(issue), guest };
}

/** Cards of the rooms the actor sees, newest first: of a room, a stay or a kind; active or past. */
export async function listCards(ctx: AuthedContext, raw: TCardListInput): Promise<{ items: CardIssueDto[]; total: number; page: number; pageSize: number }> {
  const { deps } = ctx;
  requirePermission(ctx.actor, 'room.read');
  const input = ZCardListInput.parse(raw);
  // A room that does not exist or is not the actor's is "not found", as on every list of a room.
  if (input.roomId !== undefined) await findRoom(ctx, input.roomId, { id: true });
  const search = searchText(input.search);
  const where: Prisma.CardIssueWhereInput = {
    AND: [
      visibleIssues(ctx),
      input.kind ? { kind: input.kind } : {},
      input.roomId !== undefined ? { OR: [{ roomId: input.roomId }, { grants: { some: { roomId: input.roomId } } }] } : {},
      input.stayId !== undefined ? { stayId: input.stayId } : {},
      input.scope === 'active' ? { state: 'issued' } : input.scope === 'history' ? { state: { in: ['returned', 'lost', 'ended', 'voided'] } } : {},
      search ? { OR: [{ card: { cardNumber: containsExactly(search) } }, { holderName: containsText(search) }, { note: containsText(search) }] } : {},
    ],
  };
  const [rows, total] = await Promise.all([
    deps.prisma.cardIssue.findMany({
      where,
      select: issueSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    deps.prisma.cardIssue.count({ where }),
  ]);
  return { items: rows.map(toDto), total, page: input.page, pageSize: input.pageSize };
}

export async function getCard(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  requirePermission(ctx.actor, 'room.read');
  return toDto(await findIssue(ctx, ZCardIssueIdInput.parse(raw).issueId));
}
