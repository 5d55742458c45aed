import {
  ZCardEncodeOutput,
  ZCardEncodersOutput,
  ZCardReserveOutput,
  ZCardConfirmOutput,
  ZCardVoidReservationOutput,
  ZCardSendOutput,
  ZCardLookupOutput,
  ZCardReturnOutput,
  ZCardReportLostOutput,
  ZCardRevokeOutput,
  ZCardListOutput,
  ZCardGetOutput,
  ZCardRoomFitOutput,
  ZCardKeySetsOutput,
  ZCardCreateKeySetOutput,
  ZCardDeleteKeySetOutput,
  ZCardSyncKeysOutput,
  ZCardKeyStatesOutput,
  ZCardDoorKeyStatesOutput,
} from '@console/shared/dto';
import {
  ZCardConfirmInput,
  ZCardEncodeInput,
  ZCardEncodersInput,
  ZCardIssueIdInput,
  ZCardKeySetCreateInput,
  ZCardKeySetIdInput,
  ZCardKeySyncInput,
  ZCardListInput,
  ZCardLookupInput,
  ZCardReserveInput,
  ZCardRoomFitInput,
  ZCardSendInput,
} from '@console/shared';
import { cardDoorKeyStates, cardKeyStates, createCardKeySet, deleteCardKeySet, listCardKeySets, syncCardKeys } from '../modules/cards/card-keys.service';
import { encodeRoomCard, listCardEncoders } from '../modules/cards/card-encode';
import { reportCardLost, returnCard, revokeCard } from '../modules/cards/card-end';
import { reserveCard } from '../modules/cards/card-issue';
import { getCard, listCards, lookupCard } from '../modules/cards/card-lookup';
import { cardRoomFit } from '../modules/cards/card-rooms';
import { sendCard } from '../modules/cards/card-send';
import { confirmCard, voidReservation } from '../modules/cards/card-write';
import { authedProcedure, router } from './init';

/**
 * Room cards: written at the desk in two steps (reserve the data for the card on the reader,
 * then confirm with what it reads back), read back (lookup, return), lost, revoked; and the
 * hotel's card encryption (key sets and pushing them to the locks).
 */
export const cardRouter = router({
  reserve: authedProcedure
    .input(ZCardReserveInput)

    .output(ZCardReserveOutput)
    .mutation(({ ctx, input }) => reserveCard(ctx, input)),
  confirm: authedProcedure
    .input(ZCardConfirmInput)

    .output(ZCardConfirmOutput)
    .mutation(({ ctx, input }) => confirmCard(ctx, input)),
  /** A hotel card system's room card (Seam `acs`): the encoders of the room's door's system, and a card encoded on one. */
  encoders: authedProcedure
    .input(ZCardEncodersInput)
    .output(ZCardEncodersOutput)
    .query(({ ctx, input }) => listCardEncoders(ctx, input)),
  encode: authedProcedure
    .input(ZCardEncodeInput)
    .output(ZCardEncodeOutput)
    .mutation(({ ctx, input }) => encodeRoomCard(ctx, input)),
  voidReservation: authedProcedure
    .input(ZCardIssueIdInput)

    .output(ZCardVoidReservationOutput)
    .mutation(({ ctx, input }) => voidReservation(ctx, input)),
  send: authedProcedure
    .input(ZCardSendInput)

    .output(ZCardSendOutput)
    .mutation(({ ctx, input }) => sendCard(ctx, input)),
  lookup: authedProcedure
    .input(ZCardLookupInput)

    .output(ZCardLookupOutput)
    .query(({ ctx, input }) => lookupCard(ctx, input)),
  return: authedProcedure
    .input(ZCardLookupInput)

    .output(ZCardReturnOutput)
    .mutation(({ ctx, input }) => returnCard(ctx, input)),
  reportLost: authedProcedure
    .input(ZCardIssueIdInput)

    .output(ZCardReportLostOutput)
    .mutation(({ ctx, input }) => reportCardLost(ctx, input)),
  revoke: authedProcedure
    .input(ZCardIssueIdInput)

    .output(ZCardRevokeOutput)
    .mutation(({ ctx, input }) => revokeCard(ctx, input)),
  list: authedProcedure
    .input(ZCardListInput)

    .output(ZCardListOutput)
    .query(({ ctx, input }) => listCards(ctx, input)),
  get: authedProcedure
    .input(ZCardIssueIdInput)

    .output(ZCardGetOutput)
    .query(({ ctx, input }) => getCard(ctx, input)),
  roomFit: authedProcedure
    .input(ZCardRoomFitInput)

    .output(ZCardRoomFitOutput)
    .query(({ ctx, input }) => cardRoomFit(ctx, input)),
  keySets: authedProcedure.output(ZCardKeySetsOutput).query(({ ctx }) => listCardKeySets(ctx)),
  createKeySet: authedProcedure
    .input(ZCardKeySetCreateInput)

    .output(ZCardCreateKeySetOutput)
    .mutation(({ ctx, input }) => createCardKeySet(ctx, input)),
  deleteKeySet: authedProcedure
    .input(ZCardKeySetIdInput)

    .output(ZCardDeleteKeySetOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteCardKeySet(ctx, input);
      return { ok: true };
    }),
  syncKeys: authedProcedure
    .input(ZCardKeySyncInput)

    .output(ZCardSyncKeysOutput)
    .mutation(({ ctx, input }) => syncCardKeys(ctx, input)),
  keyStates: authedProcedure.output(ZCardKeyStatesOutput).query(({ ctx }) => cardKeyStates(ctx)),
  doorKeyStates: authedProcedure.output(ZCardDoorKeyStatesOutput).query(({ ctx }) => cardDoorKeyStates(ctx)),
});
