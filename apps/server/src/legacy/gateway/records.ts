import { z } from 'zod';
import { CARD_KINDS, WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPage, ZSearch, zPageSize } from '@console/shared';
import type { Actor, AuthedContext } from '../../context';
import { getCard, listCards } from '../../modules/cards/card-lookup';
import { getRoom } from '../../modules/room/room-list';
import { getStay } from '../../modules/stays/stay-list';
import { listRecordsByPerson, listUnlockRecords } from '../../modules/unlock-records/unlock-record.service';
import { CARD_FIELD_NAMES, gatewayCard } from './convert';
import { bearerRoute } from './route';

type Ctx = AuthedContext & { actor: Actor };

const ZRecordQuery = z
  .object({
    /** `cards`: the cards written (issued, ended, ...); `unlocks`: what the locks recorded; `all`: both. */
    type: z.enum(['cards', 'unlocks', 'all'], { error: 'validation.invalid' }).default('cards'),
    roomId: ZId.optional(),
    stayId: ZId.optional(),
    issueId: ZId.optional(),
    cardType: z.enum(CARD_KINDS, { error: 'validation.invalid' }).optional(),
    /** Cards: `active` (issued now), `history` (returned, lost, ended, voided) or `all`. */
    scope: z.enum(['active', 'history', 'all'], { error: 'validation.invalid' }).default('all'),
    /** Cards whose number, holder or note contains this text. */
    search: ZSearch.optional(),
    /** Unlock records: the hotel's days, inclusive. */
    startDate: ZLocalDate.optional(),
    endDate: ZLocalDate.optional(),
    page: ZPage,
    pageSize: zPageSize(),
  })
  .refine((v) => !v.startDate || !v.endDate || v.startDate <= v.endDate, { error: 'validation.endAfterStart', path: ['endDate'], ...WHEN_FIELDS_VALID });
type TRecordQuery = z.output<typeof ZRecordQuery>;

async function cards(ctx: Ctx, q: TRecordQuery) {
  if (q.issueId !== undefined) {
    const card = gatewayCard(await getCard(ctx, { issueId: q.issueId }));
    return { items: [card], total: 1, page: 1, pageSize: q.pageSize };
  }
  const result = await listCards(ctx, {
    roomId: q.roomId,
    stayId: q.stayId,
    kind: q.cardType,
    scope: q.scope,
    search: q.search,
    page: q.page,
    pageSize: q.pageSize,
  });
  return { items: result.items.map(gatewayCard), total: result.total, page: result.page, pageSize: result.pageSize };
}

type RecordList = Awaited<ReturnType<typeof listUnlockRecords>>;

export function gatewayRecords(result: RecordList) {
  return {
    items: result.items.map((r) => ({
      recordId: r.id,
      roomId: r.roomId,
      roomName: r.roomName,
      occurredAt: r.occurredAt,
      success: r.success,
      style: r.style,
      event: r.event,
      source: r.source,
      device: r.device,
      operator: r.operator,
      credential: r.credential,
      /** The card writing that opened (or tried), when it is one of ours. */
      issueId: r.credential?.startsWith('card:') ? Number(r.credential.slice(5)) : null,
    })),
    total: result.total,
    totalCapped: result.totalCapped,
    page: result.page,
    pageSize: result.pageSize,
  };
}

async function unlocks(ctx: Ctx, q: TRecordQuery) {
  const range = { from: q.startDate, to: q.endDate, page: q.page, pageSize: q.pageSize };
  if (q.issueId !== undefined) {
    await getCard(ctx, { issueId: q.issueId });
    return gatewayRecords(await listRecordsByPerson(ctx, { ...range, roomId: q.roomId, credential: `card:${q.issueId}` }));
  }
  if (q.roomId !== undefined) return gatewayRecords(await listUnlockRecords(ctx, { ...range, roomId: q.roomId }));
  return gatewayRecords(await listRecordsByPerson(ctx, range));
}

/** `/linQuan/getAuthorizationRecord`: the cards written and ended, and the unlock records of the locks. */
export const recordRoutes = [
  bearerRoute({
    method: ['GET', 'POST'],
    url: '/linQuan/getAuthorizationRecord',
    input: ZRecordQuery,
    services: [listCards, getCard, listUnlockRecords, listRecordsByPerson, getRoom, getStay],
    fields: CARD_FIELD_NAMES,
    async handle(ctx, q) {
      // A room or stay the account does not see is "not found", not an empty list.
      if (q.roomId !== undefined) await getRoom(ctx, q.roomId);
      if (q.stayId !== undefined) await getStay(ctx, { stayId: q.stayId });
      const data: Record<string, unknown> = { type: q.type };
      if (q.type !== 'unlocks') data.cards = await cards(ctx, q);
      if (q.type !== 'cards') data.unlocks = await unlocks(ctx, q);
      return { data };
    },
  }),
];
