import { z } from 'zod';
import {
  ZAddGuestInput,
  ZRemoveGuestInput,
  ZArriveInput,
  ZCheckInInput,
  ZCancelReservationInput,
  ZChangeRoomInput,
  ZId,
  ZIdempotencyKey,
  ZRenewInput,
  ZRescheduleInput,
  ZReservationInput,
  ZRoomListInput,
  ZStayListInput,
  ZPasswordCreateInput,
  ZPasswordRevokeInput,
} from '@console/shared';
import {
  ZRoomGetOutput,
  ZRoomGroupListOutput,
  ZRoomListOutput,
  ZStayAddGuestOutput,
  ZStayRemoveGuestOutput,
  ZStayArriveOutput,
  ZStayCheckInOutput,
  ZStayCancelReservationOutput,
  ZStayChangeRoomOutput,
  ZStayCheckOutOutput,
  ZStayGetOutput,
  ZStayListOutput,
  ZStayRenewOutput,
  ZStayReserveOutput,
  ZStayRescheduleOutput,
  ZPasswordCreateOutput,
  ZPasswordRevokeOutput,
} from '@console/shared/dto';
import { cursorOf } from '../../db/keyset';
import { findStay } from '../../modules/base/stay-dto';
import { createPassword, revokePassword } from '../../modules/credentials/password.service';
import { listRoomGroups } from '../../modules/room/room-group.service';
import { getRoom, listRooms } from '../../modules/room/room-list';
import { stayKeys } from '../../modules/stay-keys/stay-keys';
import { arriveReservation } from '../../modules/stays/arrival';
import { checkIn } from '../../modules/stays/check-in';
import { addGuest, removeGuest } from '../../modules/stays/guests';
import { cancelReservation, checkOut } from '../../modules/stays/check-out';
import { renewStay } from '../../modules/stays/renewal';
import { createReservation } from '../../modules/stays/reservation';
import { changeRoom } from '../../modules/stays/room-change';
import { rescheduleStay } from '../../modules/stays/reschedule';
import { upsertReservationByKey } from '../../modules/stays/reservation-upsert';
import { getStayByKey } from '../../modules/stays/stay-by-key';
import { getStay, listStaysAfter } from '../../modules/stays/stay-list';
import { ZCursorQuery, cursorPage, keysetFrom, keysetPage, numberedPage, pageFrom } from './cursor';
import { ZApiStayCredentials, apiStayCredentials } from './stay-credentials';
import { CARD_FACE_ROUTES } from './card-face-routes';
import { HOTEL_GUEST_ROUTES } from './hotel-guest-routes';
import { apiRoute, fieldsOf, itemOf, type ApiRoute } from './route';
import { FOLIO_ROUTES } from './folio-routes';
import { INVOICE_ROUTES } from './invoice-routes';
import { LOCK_ROUTES } from './lock-routes';
import { WEBHOOK_API_ROUTES } from './webhook-routes';

const ZRoomPath = z.object({ roomId: ZId });
const ZStayPath = z.object({ stayId: ZId });
const ZRoomItem = itemOf(ZRoomListOutput);
const ZStayItem = itemOf(ZStayListOutput);

/** Every operation of the JSON API, in the order the document lists them. */
export const API_ROUTES: ApiRoute[] = [
  // The hotel and its guests (hotel-guest-routes.ts)
  ...HOTEL_GUEST_ROUTES,

  // Rooms and room groups
  apiRoute({
    method: 'GET',
    path: '/rooms',
    operationId: 'listRooms',
    tag: 'Rooms',
    summary: 'List rooms',
    description: "The hotel's rooms in the board's order, with their state, current and next stay and lock.",
    permission: 'room.read',
    query: fieldsOf(ZRoomListInput, 'page', 'pageSize').extend(ZCursorQuery.shape),
    response: cursorPage(ZRoomItem),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const { page, pageSize } = pageFrom(cursor, limit);
      const result = await listRooms(ctx, { ...filters, page, pageSize });
      return numberedPage(result.items, page, pageSize, result.total);
    },
  }),
  apiRoute({
    method: 'GET',
    path: '/rooms/{roomId}',
    operationId: 'getRoom',
    tag: 'Rooms',
    summary: 'Get a room',
    permission: 'room.read',
    params: ZRoomPath,
    response: ZRoomGetOutput,
    handle: (ctx, { params }) => getRoom(ctx, params.roomId),
  }),
  apiRoute({
    method: 'GET',
    path: '/room-groups',
    operationId: 'listRoomGroups',
    tag: 'Rooms',
    summary: 'List room groups',
    permission: 'room.read',
    response: z.object({ items: ZRoomGroupListOutput }),
    handle: async (ctx) => ({ items: await listRoomGroups(ctx) }),
  }),

  // Reservations and stays
  apiRoute({
    method: 'GET',
    path: '/stays',
    operationId: 'listStays',
    tag: 'Stays',
    summary: 'List stays and reservations',
    description: 'Newest check-in first, filtered by state, dates (hotel days), room and guest.',
    permission: 'room.read',
    query: fieldsOf(ZStayListInput, 'page', 'pageSize').extend(ZCursorQuery.shape),
    response: cursorPage(ZStayItem),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const rows = await listStaysAfter(ctx, filters, keysetFrom(cursor), limit + 1);
      return keysetPage(rows, limit, (r) => cursorOf(r.checkInAt, r.id));
    },
  }),
  apiRoute({
    method: 'GET',
    path: '/stays/{stayId}',
    operationId: 'getStay',
    tag: 'Stays',
    summary: 'Get a stay or reservation',
    description: 'With its guests and bill.',
    permission: 'room.read',
    params: ZStayPath,
    response: ZStayGetOutput,
    handle: (ctx, { params }) => getStay(ctx, params),
  }),
  apiRoute({
    method: 'GET',
    path: '/stays/by-external-id/{externalId}',
    operationId: 'getStayByExternalId',
    tag: 'Stays',
    summary: 'Get a stay or reservation by your own id',
    description: 'The `Idempotency-Key` it was made with (`POST /reservations`, `POST /stays`): your booking id.',
    permission: 'room.read',
    params: z.object({ externalId: ZIdempotencyKey }),
    response: ZStayGetOutput,
    handle: (ctx, { params }) => getStayByKey(ctx, params.externalId),
  }),
  apiRoute({
    method: 'POST',
    path: '/reservations',
    operationId: 'createReservation',
    tag: 'Stays',
    summary: 'Create a reservation',
    description:
      "A room, or any free room of a group for the dates. The `Idempotency-Key` is the reservation's key for good: sent again (even after the replay window), it answers the same reservation and makes no second one.",
    permission: 'stay.manage',
    body: fieldsOf(ZReservationInput, 'idempotencyKey'),
    response: ZStayReserveOutput,
    status: 201,
    handle: (ctx, { body, idempotencyKey }) => createReservation(ctx, { ...body, idempotencyKey }),
  }),
  apiRoute({
    method: 'PUT',
    path: '/reservations/by-external-id/{externalId}',
    operationId: 'upsertReservationByExternalId',
    tag: 'Stays',
    summary: 'Create or move a reservation by your own id',
    description:
      'Made when no reservation has `externalId` (it becomes its key for good, as `POST /reservations` with that `Idempotency-Key`); otherwise that reservation moves to the dates and room sent (priced again, its codes following; a room taken is refused naming the booking in the way). Guests, price and deposit are those of the first call.',
    permission: 'stay.manage',
    params: z.object({ externalId: ZIdempotencyKey }),
    body: fieldsOf(ZReservationInput, 'idempotencyKey'),
    response: ZStayReserveOutput,
    handle: (ctx, { params, body }) => upsertReservationByKey(ctx, params.externalId, body),
  }),
  apiRoute({
    method: 'PATCH',
    path: '/reservations/{stayId}',
    operationId: 'rescheduleReservation',
    tag: 'Stays',
    summary: 'Change the dates or room of a reservation (or the check-out of a stay)',
    description:
      "A reservation moves to other dates and/or room, priced again for the new nights; a stay in progress only to another check-out (later: the added nights charged; earlier: the nights taken off credited on the bill today). A room taken is refused naming the booking in the way; the guest's codes follow. A channel's reservation keeps the channel's dates.",
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZRescheduleInput, 'stayId'),
    response: ZStayRescheduleOutput,
    handle: (ctx, { params, body }) => rescheduleStay(ctx, { ...body, stayId: params.stayId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays',
    operationId: 'checkInWalkIn',
    tag: 'Stays',
    summary: 'Check a guest in without a reservation (walk-in)',
    description: "The `Idempotency-Key` is the stay's key for good: sent again, it answers the same stay and makes no second one.",
    permission: 'stay.manage',
    body: fieldsOf(ZCheckInInput, 'idempotencyKey'),
    response: ZStayCheckInOutput,
    status: 201,
    handle: (ctx, { body, idempotencyKey }) => checkIn(ctx, { ...body, idempotencyKey }),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/guests',
    operationId: 'addGuest',
    tag: 'Stays',
    summary: 'Add a guest to a stay',
    permission: 'stay.manage',
    params: ZStayPath,
    body: ZAddGuestInput.shape.guest,
    response: ZStayAddGuestOutput,
    status: 201,
    handle: (ctx, { params, body }) => addGuest(ctx, { stayId: params.stayId, guest: body }),
  }),
  apiRoute({
    method: 'DELETE',
    path: '/stays/{stayId}/guests/{guestId}',
    operationId: 'removeGuest',
    tag: 'Stays',
    summary: 'Remove a companion guest from a stay',
    description:
      "Their codes, cards and faces are withdrawn from the locks. The stay's primary guest cannot be removed (409), nor a guest of a stay that has ended; a guest not of that stay is not found. Answers the stay as it is now.",
    permission: 'stay.manage',
    params: z.object({ stayId: ZRemoveGuestInput.shape.stayId, guestId: ZRemoveGuestInput.shape.guestId }),
    response: ZStayRemoveGuestOutput,
    handle: (ctx, { params }) => removeGuest(ctx, params),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/cancel',
    operationId: 'cancelReservation',
    tag: 'Stays',
    summary: 'Cancel a reservation',
    description:
      'Withdraws its credentials from the locks. When it holds money (a deposit), `deposit` says what becomes of it: `refund` (in the way `refundMethod` names) or `keep` (as a cancellation fee, `depositReason` saying why); without it such a cancellation is refused (400) and nothing changes.',
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZCancelReservationInput, 'stayId'),
    response: ZStayCancelReservationOutput,
    handle: (ctx, { params, body }) => cancelReservation(ctx, { ...body, stayId: params.stayId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/check-in',
    operationId: 'checkInReservation',
    tag: 'Stays',
    summary: 'Check a reservation in (the guest arrived)',
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZArriveInput, 'stayId'),
    response: ZStayArriveOutput,
    handle: (ctx, { params, body }) => arriveReservation(ctx, { ...body, stayId: params.stayId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/check-out',
    operationId: 'checkOut',
    tag: 'Stays',
    summary: 'Check a stay out',
    description:
      'Withdraws its credentials from the locks. A reservation whose guest has not arrived is not checked out: 409 (cancel it instead: `POST /stays/{stayId}/cancel`).',
    permission: 'stay.manage',
    params: ZStayPath,
    response: ZStayCheckOutOutput,
    handle: (ctx, { params }) => checkOut(ctx, params),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/dates',
    operationId: 'changeStayDates',
    tag: 'Stays',
    summary: 'Change the expected check-out (extend or shorten)',
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZRenewInput, 'stayId'),
    response: ZStayRenewOutput,
    handle: (ctx, { params, body }) => renewStay(ctx, { ...body, stayId: params.stayId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/room',
    operationId: 'changeStayRoom',
    tag: 'Stays',
    summary: 'Move a stay to another room',
    description:
      "Its credentials follow it to the new room's lock. To a dearer room (the two rooms' prices over the nights left), `upgrade` says what becomes of the difference: `charge` (the stay's price rises by it) or `complimentary` (the booked price kept); without it such a move is refused (400) and nothing changes. A cheaper room lowers the price by the difference.",
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZChangeRoomInput, 'stayId'),
    response: ZStayChangeRoomOutput,
    handle: (ctx, { params, body }) => changeRoom(ctx, { ...body, stayId: params.stayId }),
  }),
  apiRoute({
    method: 'GET',
    path: '/stays/{stayId}/credentials',
    operationId: 'listStayCredentials',
    tag: 'Credentials',
    summary: "A stay's credentials and their state on the lock",
    description:
      'Codes (`codes`, as the paths name them: `POST /stays/{stayId}/codes`), cards and faces of the stay, each with whether it is on the lock (`deliveryState`). `passwords` is the same list as `codes`, kept for clients written before the API said `codes` (deprecated).',
    permission: 'room.read',
    params: ZStayPath,
    response: ZApiStayCredentials,
    handle: async (ctx, { params }) => apiStayCredentials(await stayKeys(ctx, params)),
  }),

  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/codes',
    operationId: 'issueStayCode',
    tag: 'Credentials',
    summary: "Issue a code on the stay's lock",
    description:
      '`custom`: your 6 digits; `air`: a code the lock cloud makes. Valid for the stay (never beyond its check-out); the lock gets it by itself: `GET /stays/{stayId}/credentials` shows when it is on the lock.',
    permission: 'credential.manage',
    params: ZStayPath,
    body: fieldsOf(ZPasswordCreateInput, 'roomId', 'stayId', 'accountId', 'holderName'),
    response: ZPasswordCreateOutput,
    status: 201,
    async handle(ctx, { params, body }) {
      // The stay's room, as the actor may see it (another hotel's stay is not found); the service checks the rest.
      const stay = await findStay(ctx, params.stayId);
      return createPassword(ctx, { ...body, roomId: stay.roomId, stayId: stay.id });
    },
  }),
  apiRoute({
    method: 'POST',
    path: '/codes/{codeId}/withdraw',
    operationId: 'withdrawCode',
    tag: 'Credentials',
    summary: 'Withdraw a code from its lock',
    permission: 'credential.manage',
    params: z.object({ codeId: ZPasswordRevokeInput.shape.id }),
    response: ZPasswordRevokeOutput,
    handle: (ctx, { params }) => revokePassword(ctx, { id: params.codeId }),
  }),
  // Cards and faces (card-face-routes.ts)
  ...CARD_FACE_ROUTES,

  // Folio (folio-routes.ts)
  ...FOLIO_ROUTES,
  ...INVOICE_ROUTES,

  // Locks and unlock records (lock-routes.ts)
  ...LOCK_ROUTES,

  // Webhooks (webhook-routes.ts)
  ...WEBHOOK_API_ROUTES,
];
