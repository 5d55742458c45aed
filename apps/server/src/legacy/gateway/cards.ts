import { z } from 'zod';
import { CARD_KINDS, ZCardBlock, ZCardNote, ZCardNumber, ZCardUid, ZFlag, ZId, cardNumberOfUid } from '@console/shared';
import type { Actor, AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { reportCardLost, returnCard, revokeCard } from '../../modules/cards/card-end';
import { reserveCard } from '../../modules/cards/card-issue';
import { getCard, lookupCard } from '../../modules/cards/card-lookup';
import { confirmCard, voidReservation } from '../../modules/cards/card-write';
import { getRoom } from '../../modules/room/room-list';
import { CARD_FIELD_NAMES, ZGatewayTime, gatewayCard, gatewayInstant } from './convert';
import { bearerRoute } from './route';

type Ctx = AuthedContext & { actor: Actor };

const STEPS = ['reserve', 'confirm', 'void'] as const;

/** Step one: the data to write on the card with this UID (a room card of a stay, or a management or universal card). */
const ZReserve = z.object({
  uid: ZCardUid,
  cardType: z.enum(CARD_KINDS, { error: 'validation.invalid' }).default('room'),
  roomId: ZId.optional(),
  stayId: ZId.optional(),
  mode: z.enum(['new', 'duplicate'], { error: 'validation.invalid' }).default('new'),
  roomIds: z.array(ZId, { error: 'validation.invalid' }).max(1000, { error: 'validation.invalid' }).optional(),
  allRooms: ZFlag.default(false),
  startTime: ZGatewayTime.optional(),
  endTime: ZGatewayTime.optional(),
  note: ZCardNote.default(''),
});

/**
 * What the fields of a reservation must say together (a room card needs its room or its stay, not
 * both, and takes the stay's period; other cards need rooms). Checked once the fields themselves
 * are valid; every problem is named at once.
 */
function reserveProblems(v: z.output<typeof ZReserve>): Record<string, string> {
  const fields: Record<string, string> = {};
  if (v.cardType === 'room') {
    if (v.roomId === undefined && v.stayId === undefined) fields.roomId = 'validation.roomRequired';
    if (v.roomId !== undefined && v.stayId !== undefined) fields.stayId = 'gateway.errors.roomOrStay';
    if (v.startTime !== undefined) fields.startTime = 'gateway.errors.roomCardPeriod';
    if (v.endTime !== undefined) fields.endTime = 'gateway.errors.roomCardPeriod';
  } else if (!v.allRooms && v.roomId === undefined && !v.roomIds?.length) {
    fields.roomIds = 'validation.roomRequired';
  }
  return fields;
}

/** Step two: what the reader read back from the card after writing it. */
const ZConfirm = z.object({
  issueId: ZId,
  uid: ZCardUid,
  blocks: z.array(ZCardBlock, { error: 'validation.cardDataLength' }).min(1, { error: 'validation.cardDataLength' }).max(4, { error: 'validation.invalid' }),
});

/** Or: the card could not be written, give the reservation up. */
const ZVoid = z.object({ issueId: ZId });

function parse<S extends z.ZodType>(schema: S, input: unknown, problems: (value: z.output<S>) => Record<string, string> = () => ({})): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw AppError.validation(parsed.error);
  const fields = problems(parsed.data);
  const first = Object.values(fields)[0];
  if (first) throw new AppError('VALIDATION', { messageKey: first, fields });
  return parsed.data;
}

async function reserve(ctx: Ctx, input: z.output<typeof ZReserve>) {
  const tz = ctx.actor.timeZone;
  let write;
  if (input.cardType === 'room') {
    // A room card is always a stay's card: the stay named, or the one the room shows now.
    let stayId = input.stayId;
    if (stayId === undefined) {
      const room = await getRoom(ctx, input.roomId!);
      if (!room.currentStay) throw new AppError('CONFLICT', { messageKey: 'gateway.errors.noStay', params: { room: room.name } });
      stayId = room.currentStay.id;
    }
    write = await reserveCard(ctx, { uid: input.uid, kind: 'room', stayId, mode: input.mode, note: input.note });
  } else {
    write = await reserveCard(ctx, {
      uid: input.uid,
      kind: input.cardType,
      allRooms: input.allRooms,
      roomIds: input.allRooms ? undefined : (input.roomIds ?? [input.roomId!]),
      validFrom: gatewayInstant(input.startTime, tz),
      validUntil: gatewayInstant(input.endTime, tz) ?? null,
      note: input.note,
    });
  }
  return {
    messageKey: 'gateway.cardReserved',
    data: {
      step: 'reserve',
      issueId: write.issue.id,
      card: gatewayCard(write.issue),
      sector: write.sector,
      openKeys: write.openKeys,
      blocks: write.blocks,
      trailer: write.trailer,
    },
  };
}

const DELETE_TYPES = ['return', 'lost', 'revoke'] as const;

/** `/linQuan/writeRoomCard` and `/linQuan/deleteRoomCard`: a card written in two steps, and ended. */
export const cardRoutes = [
  bearerRoute({
    method: ['POST'],
    url: '/linQuan/writeRoomCard',
    input: z.looseObject({ step: z.enum(STEPS, { error: 'validation.invalid' }).default('reserve') }),
    services: [reserveCard, confirmCard, voidReservation, getRoom],
    fields: { ...CARD_FIELD_NAMES, roomIds: 'roomIds' },
    async handle(ctx, input) {
      if (input.step === 'reserve') return reserve(ctx, parse(ZReserve, input, reserveProblems));
      if (input.step === 'confirm') {
        const { issueId, uid, blocks } = parse(ZConfirm, input);
        const card = await confirmCard(ctx, { issueId, uid, blocks });
        return { messageKey: 'gateway.cardIssued', data: { step: 'confirm', issueId: card.id, card: gatewayCard(card) } };
      }
      const { issueId } = parse(ZVoid, input);
      const card = await voidReservation(ctx, { issueId });
      return { messageKey: 'gateway.reservationVoided', data: { step: 'void', issueId: card.id, card: gatewayCard(card) } };
    },
  }),

  bearerRoute({
    method: ['POST'],
    url: '/linQuan/deleteRoomCard',
    input: z.object({
      type: z.enum(DELETE_TYPES, { error: 'validation.invalid' }).default('return'),
      issueId: ZId.optional(),
      cardNumber: ZCardNumber.optional(),
      uid: ZCardUid.optional(),
    }),
    services: [returnCard, reportCardLost, revokeCard, getCard, lookupCard],
    async handle(ctx, input) {
      if (input.issueId === undefined && input.cardNumber === undefined && input.uid === undefined) {
        throw new AppError('VALIDATION', { messageKey: 'gateway.errors.cardRequired', fields: { cardNumber: 'gateway.errors.cardRequired' } });
      }
      // The writing meant: by its id, else the card's live writing by its number (or UID).
      let issueId = input.issueId;
      let cardNumber = input.cardNumber ?? (input.uid !== undefined ? cardNumberOfUid(input.uid) : undefined);
      if (issueId !== undefined) {
        const card = await getCard(ctx, { issueId });
        if (card.state !== 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
        cardNumber = card.cardNumber;
      }
      if (input.type === 'return') {
        const { issue, clear } = await returnCard(ctx, { cardNumber: cardNumber! });
        return { messageKey: 'gateway.cardReturned', data: { type: 'return', issueId: issue.id, card: gatewayCard(issue), clear } };
      }
      issueId ??= (await lookupCard(ctx, { cardNumber: cardNumber! })).issue?.id;
      if (issueId === undefined) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notIssued' });
      const card = input.type === 'lost' ? await reportCardLost(ctx, { issueId }) : await revokeCard(ctx, { issueId });
      return {
        messageKey: input.type === 'lost' ? 'gateway.cardLost' : 'gateway.cardRevoked',
        data: { type: input.type, issueId: card.id, card: gatewayCard(card) },
      };
    },
  }),
];
