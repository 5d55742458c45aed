import { z } from 'zod';
import {
  ZCardBlock,
  ZCardConfirmInput,
  ZCardKeySetCreateInput,
  ZCardKeySetName,
  ZCardKeySyncInput,
  ZCardReserveInput,
  ZCardSendInput,
  ZId,
  type TCardConfirmInput,
} from '@console/shared';
import type { AuthedContext } from '../../../context';
import {
  cardKeyStates,
  createCardKeySet,
  deleteCardKeySet,
  listCardKeySets,
  syncCardKeys,
  type CardKeySetDto,
  type CardKeySyncDto,
} from '../../../modules/cards/card-keys.service';
import type { CardIssueDto } from '../../../modules/cards/card-dto';
import { reserveCard } from '../../../modules/cards/card-issue';
import { sendCard } from '../../../modules/cards/card-send';
import { confirmCard, voidReservation } from '../../../modules/cards/card-write';
import { sessionAction } from '../action';
import { ZFlag, ZLegacyTime, instantOrFail } from '../convert';
import { legacyTime } from '../format';

/**
 * `/manage/room/*` actions of room cards (docs/legacy-protocol.md, "Room cards"): writing a card
 * at the desk in two steps (`cardAdd` reserves the data for the card on the reader,
 * `addCardStepTwoNew` confirms it with what the card reads back, or abandons it), cards sent over
 * the air by number (`sendCard`, `sendCardEncryption`), and the hotel's card encryption (key sets,
 * pushed to the locks). Every rule is the card services'; this file only renames fields.
 */

/** Service field names -> the legacy ones, so errors name what the client sent. */
export const CARD_FIELDS = {
  issueId: 'card_id',
  cardNumber: 'card_num',
  stayId: 'tenant_id',
  allRooms: 'all',
  validFrom: 'start_time',
  validUntil: 'end_time',
  roomId: 'room_id',
  search: 'keyword',
};

type Translate = (key: string) => string | null;

function translator(ctx: AuthedContext): Translate {
  return (key) => (ctx.deps.i18n.has(key) ? ctx.deps.i18n.t(ctx.meta.lang, key) : null);
}

/** Why a card or one of its locks ended, in the request's language (a reservation never written has its own text). */
function reasonText(t: Translate, reason: string | null): string | null {
  if (reason === null) return null;
  return t(reason === 'write_failed' ? 'cards.endReasons.write_failed' : `credentials.revokeReasons.${reason}`);
}

/**
 * A card (one writing of it) as legacy clients read it: snake_case, hotel times, codes with their
 * texts in the request's language; `locks` says where each of its rooms' locks stands with it.
 */
export function legacyCard(c: CardIssueDto, ctx: AuthedContext) {
  const t = translator(ctx);
  const zone = ctx.actor.timeZone;
  return {
    id: c.id,
    card_num: c.cardNumber,
    uid: c.uid,
    kind: c.kind,
    medium: c.medium,
    state: c.state,
    state_text: t(`cards.states.${c.state}`),
    tenant_id: c.stayId,
    room_id: c.roomId,
    room_name: c.roomName,
    all_rooms: c.allRooms ? 1 : 0,
    duplicate: c.duplicate ? 1 : 0,
    generation: c.generation,
    name: c.holderName,
    note: c.note,
    /** The spec's name of the note (§3 Card: card_num, cardNote). */
    cardNote: c.note,
    start_time: legacyTime(c.validFrom, zone),
    end_time: legacyTime(c.validUntil, zone),
    permanent: c.validUntil === null ? 1 : 0,
    needs_rewrite: c.needsRewrite ? 1 : 0,
    end_reason: c.endReason,
    end_reason_text: reasonText(t, c.endReason),
    issue_time: legacyTime(c.issuedAt, zone),
    ended_time: legacyTime(c.endedAt, zone),
    create_time: legacyTime(c.createdAt, zone),
    locks: c.grants.map((g) => ({
      room_id: g.roomId,
      room_name: g.roomName,
      state: g.deliveryState,
      state_text: t(`credentials.states.${g.deliveryState}`),
      error: g.lastError,
      error_text: g.lastError ? t(`credentials.errors.${g.lastError}`) : null,
      revoke_reason: g.revokeReason,
      revoke_reason_text: reasonText(t, g.revokeReason),
    })),
  };
}

function legacyKeySet(k: CardKeySetDto, ctx: AuthedContext) {
  const zone = ctx.actor.timeZone;
  return {
    id: k.id,
    name: k.name,
    sector: k.sector,
    fingerprint: k.fingerprint,
    is_active: k.isActive ? 1 : 0,
    retired_time: legacyTime(k.retiredAt, zone),
    keep_until: legacyTime(k.keepUntil, zone),
    issued_cards: k.issuedCards,
    create_time: legacyTime(k.createdAt, zone),
  };
}

/** Where one lock stands with the hotel's card keys. */
function legacyKeySync(s: CardKeySyncDto, ctx: AuthedContext) {
  const t = translator(ctx);
  return {
    room_id: s.roomId,
    room_name: s.roomName,
    lock_id: s.lockId,
    state: s.deliveryState,
    state_text: t(s.deliveryState === 'never' ? 'cards.keySync.never' : `credentials.states.${s.deliveryState}`),
    error: s.lastError,
    error_text: s.lastError ? t(`credentials.errors.${s.lastError}`) : null,
    delivered_time: legacyTime(s.deliveredAt, ctx.actor.timeZone),
  };
}

const reserve = ZCardReserveInput.shape;
const send = ZCardSendInput.shape;

/** A validity given in hotel times (each optional). */
function validity(ctx: AuthedContext, input: { start_time?: string; end_time?: string }) {
  return {
    validFrom: input.start_time !== undefined ? instantOrFail(input.start_time, ctx.actor, 'start_time') : undefined,
    validUntil: input.end_time !== undefined ? instantOrFail(input.end_time, ctx.actor, 'end_time') : undefined,
  };
}

const period = { start_time: ZLegacyTime.optional(), end_time: ZLegacyTime.optional() };

export const roomCardActions = [
  sessionAction({
    path: 'room/cardAdd',
    input: z.object({
      /** The UID the desk reader read from the card (8 or 14 hex characters). */
      uid: reserve.uid,
      kind: reserve.kind.default('room'),
      /** A room card: the stay (tenant) it is for. */
      tenant_id: ZId.optional(),
      mode: reserve.mode,
      /** A universal or management card: its rooms, or `all`. */
      room_ids: reserve.roomIds,
      all: ZFlag.default(false),
      ...period,
      note: reserve.note,
    }),
    services: [reserveCard],
    fields: CARD_FIELDS,
    async handle(ctx, input) {
      const write = await reserveCard(ctx, {
        uid: input.uid,
        kind: input.kind,
        stayId: input.tenant_id,
        mode: input.mode,
        roomIds: input.room_ids,
        allRooms: input.all,
        ...validity(ctx, input),
        note: input.note,
      });
      return { ...legacyCard(write.issue, ctx), sector: write.sector, blocks: write.blocks, trailer: write.trailer, open_keys: write.openKeys };
    },
  }),

  sessionAction({
    path: 'room/addCardStepTwoNew',
    input: z.object({
      /** The `id` that `room/cardAdd` answered. */
      card_id: ZId,
      /** The UID and the blocks as the reader read them back after writing (not needed with `cancel`). */
      uid: ZCardConfirmInput.shape.uid.optional(),
      blocks: z.array(ZCardBlock).optional(),
      /** 1: the card was not written (the write failed or the desk gave up): the reservation is voided, nothing is issued. */
      cancel: ZFlag.default(false),
    }),
    services: [confirmCard, voidReservation],
    fields: CARD_FIELDS,
    async handle(ctx, input) {
      if (input.cancel) return legacyCard(await voidReservation(ctx, { issueId: input.card_id }), ctx);
      // Without the UID or the blocks, the service says which is missing.
      return legacyCard(await confirmCard(ctx, { issueId: input.card_id, uid: input.uid, blocks: input.blocks } as TCardConfirmInput), ctx);
    },
  }),

  sessionAction({
    path: 'room/sendCard',
    input: z.object({ card_num: send.cardNumber, tenant_id: ZId.optional(), room_id: ZId.optional(), ...period, note: send.note }),
    services: [sendCard],
    fields: { ...CARD_FIELDS, roomIds: 'room_id' },
    async handle(ctx, input) {
      const card = await sendCard(ctx, {
        cardNumber: input.card_num,
        kind: 'room',
        stayId: input.tenant_id,
        roomIds: input.room_id !== undefined ? [input.room_id] : undefined,
        ...validity(ctx, input),
        note: input.note,
      });
      return legacyCard(card, ctx);
    },
  }),

  sessionAction({
    path: 'room/sendCardEncryption',
    input: z.object({
      card_num: send.cardNumber,
      kind: z.enum(['universal', 'management'], { error: 'validation.invalid' }).default('universal'),
      room_ids: send.roomIds,
      ...period,
      note: send.note,
    }),
    services: [sendCard],
    fields: CARD_FIELDS,
    async handle(ctx, input) {
      const card = await sendCard(ctx, { cardNumber: input.card_num, kind: input.kind, roomIds: input.room_ids, ...validity(ctx, input), note: input.note });
      return legacyCard(card, ctx);
    },
  }),

  sessionAction({
    path: 'room/cardEncryption',
    input: z.object({ name: ZCardKeySetName, sector: ZCardKeySetCreateInput.shape.sector }),
    services: [createCardKeySet],
    handle: async (ctx, input) => legacyKeySet(await createCardKeySet(ctx, { name: input.name, sector: input.sector }), ctx),
  }),

  sessionAction({
    path: 'room/cardEncryptionList',
    input: z.object({}),
    services: [listCardKeySets, cardKeyStates],
    async handle(ctx) {
      const [sets, locks] = await Promise.all([listCardKeySets(ctx), cardKeyStates(ctx)]);
      return { list: sets.map((k) => legacyKeySet(k, ctx)), locks: locks.map((s) => legacyKeySync(s, ctx)) };
    },
  }),

  sessionAction({
    path: 'room/deleteCardEncryption',
    input: z.object({ id: ZId }),
    services: [deleteCardKeySet],
    async handle(ctx, input) {
      await deleteCardKeySet(ctx, { id: input.id });
      return null;
    },
  }),

  sessionAction({
    path: 'room/sendCardEncryptionSyntony',
    input: z.object({ room_ids: ZCardKeySyncInput.shape.roomIds }),
    services: [syncCardKeys],
    async handle(ctx, input) {
      const locks = await syncCardKeys(ctx, { roomIds: input.room_ids });
      return { list: locks.map((s) => legacyKeySync(s, ctx)) };
    },
  }),
];
