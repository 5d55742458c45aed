import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZCardLookupInput, ZId } from '@console/shared';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { returnCard } from '../../modules/cards/card-end';
import { getCard, lookupCard } from '../../modules/cards/card-lookup';
import { getGuest } from '../../modules/stays/guests';
import { sessionAction, type LegacyAction } from './action';
import { legacyGuest, legacyStay } from './convert';
import { legacyTime } from './format';
import { CARD_FIELDS, legacyCard } from './room/cards';

/**
 * `/manage/passenger/*` actions of a card read at the desk (docs/legacy-protocol.md, "Room
 * cards"): who it belongs to (`getRoomInfo`, spec §3 "guest lookup by card", §4 "card read") and
 * its withdrawal (`deleteCardByCardId`). Every rule is the card service's.
 */

const cardNumber = ZCardLookupInput.shape.cardNumber;

/**
 * The live writing of the card a client names by its writing's id (`card_id`), checked against
 * `card_num` when both are sent: the card service takes a card back by its number.
 */
async function cardNumberOf(ctx: AuthedContext, input: { card_num?: string; card_id?: number }): Promise<string> {
  if (input.card_id === undefined) return input.card_num!;
  const card = await getCard(ctx, { issueId: input.card_id });
  if (input.card_num !== undefined && card.cardNumber !== input.card_num) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notFound' });
  // Another writing of the same card may be the live one: never take that one back for this id.
  if (card.state !== 'issued') throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notIssued' });
  return card.cardNumber;
}

export const passengerCardActions: LegacyAction[] = [
  sessionAction({
    path: 'passenger/getRoomInfo',
    input: z.object({ card_num: cardNumber }),
    services: [lookupCard, getGuest],
    fields: CARD_FIELDS,
    async handle(ctx, input) {
      const found = await lookupCard(ctx, { cardNumber: input.card_num });
      // Not a card of this hotel, not issued, or not a stay's card: no guest (the console says "no guest in the room").
      if (!found.guest || !found.issue) return [];
      const { guest, stay } = await getGuest(ctx, { guestId: found.guest.id });
      const zone = ctx.actor.timeZone;
      return [
        {
          ...legacyGuest(guest),
          other_information: stay.remark,
          stay_id: stay.id,
          room_id: stay.roomId,
          room_name: stay.roomName,
          state: stay.state,
          check_in_time: legacyTime(stay.checkInAt, zone),
          check_out_time: legacyTime(stay.expectedCheckOutAt, zone),
          card_num: found.cardNumber,
          card: legacyCard(found.issue, ctx),
          stay: legacyStay(stay, ctx.actor),
        },
      ];
    },
  }),

  sessionAction({
    path: 'passenger/deleteCardByCardId',
    input: z
      .object({ card_num: cardNumber.optional(), card_id: ZId.optional() })
      .refine((v) => v.card_num !== undefined || v.card_id !== undefined, { error: 'validation.cardNumberRequired', path: ['card_num'], ...WHEN_FIELDS_VALID }),
    services: [returnCard, getCard],
    fields: CARD_FIELDS,
    async handle(ctx, input) {
      const { issue, clear, openKeys } = await returnCard(ctx, { cardNumber: await cardNumberOf(ctx, input) });
      // The desk opens the card's sector with one of `open_keys` and writes `clear` (zeros) to it.
      return { ...legacyCard(issue, ctx), sector: Math.floor(clear[0]!.block / 4), clear, open_keys: openKeys };
    },
  }),
];
