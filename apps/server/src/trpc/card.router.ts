import { ZCardConfirmInput, ZCardIssueIdInput, ZCardKeySetCreateInput, ZCardKeySetIdInput, ZCardKeySyncInput, ZCardListInput, ZCardLookupInput, ZCardReserveInput, ZCardRoomFitInput, ZCardSendInput } from '@console/shared';
import { cardKeyStates, createCardKeySet, deleteCardKeySet, listCardKeySets, syncCardKeys } from '../modules/cards/card-keys.service';
import { cardRoomFit, confirmCard, getCard, listCards, lookupCard, reportCardLost, reserveCard, returnCard, revokeCard, sendCard, voidReservation } from '../modules/cards/card.service';
import { authedProcedure, router } from './init';

/**
 * Room cards: written at the desk in two steps (reserve the data for the card on the reader,
 * then confirm with what it reads back), read back (lookup, return), lost, revoked; and the
 * hotel's card encryption (key sets and pushing them to the locks).
 */
export const cardRouter = router({
  reserve: authedProcedure.input(ZCardReserveInput).mutation(({ ctx, input }) => reserveCard(ctx, input)),
  confirm: authedProcedure.input(ZCardConfirmInput).mutation(({ ctx, input }) => confirmCard(ctx, input)),
  voidReservation: authedProcedure.input(ZCardIssueIdInput).mutation(({ ctx, input }) => voidReservation(ctx, input)),
  send: authedProcedure.input(ZCardSendInput).mutation(({ ctx, input }) => sendCard(ctx, input)),
  lookup: authedProcedure.input(ZCardLookupInput).query(({ ctx, input }) => lookupCard(ctx, input)),
  return: authedProcedure.input(ZCardLookupInput).mutation(({ ctx, input }) => returnCard(ctx, input)),
  reportLost: authedProcedure.input(ZCardIssueIdInput).mutation(({ ctx, input }) => reportCardLost(ctx, input)),
  revoke: authedProcedure.input(ZCardIssueIdInput).mutation(({ ctx, input }) => revokeCard(ctx, input)),
  list: authedProcedure.input(ZCardListInput).query(({ ctx, input }) => listCards(ctx, input)),
  get: authedProcedure.input(ZCardIssueIdInput).query(({ ctx, input }) => getCard(ctx, input)),
  roomFit: authedProcedure.input(ZCardRoomFitInput).query(({ ctx, input }) => cardRoomFit(ctx, input)),
  keySets: authedProcedure.query(({ ctx }) => listCardKeySets(ctx)),
  createKeySet: authedProcedure.input(ZCardKeySetCreateInput).mutation(({ ctx, input }) => createCardKeySet(ctx, input)),
  deleteKeySet: authedProcedure.input(ZCardKeySetIdInput).mutation(async ({ ctx, input }) => {
    await deleteCardKeySet(ctx, input);
    return { ok: true };
  }),
  syncKeys: authedProcedure.input(ZCardKeySyncInput).mutation(({ ctx, input }) => syncCardKeys(ctx, input)),
  keyStates: authedProcedure.query(({ ctx }) => cardKeyStates(ctx)),
});
