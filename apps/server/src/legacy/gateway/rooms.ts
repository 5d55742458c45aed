import { ZId, ZRoomListInput } from '@console/shared';
import { AppError } from '../../errors';
import { listRoomsForCards, type RoomCardFacts, type RoomListItem } from '../../modules/room/room-list';
import { bearerRoute } from './route';

export function gatewayRoom(room: RoomListItem, facts: RoomCardFacts | undefined) {
  return {
    roomId: room.id,
    roomName: room.name,
    remarkName: room.remarkName,
    groupId: room.groupId,
    groupName: room.groupName,
    status: room.status,
    cleanStatus: room.cleanStatus,
    maintenance: room.maintenance,
    lockId: room.lockId,
    lockNumber: facts?.lockNumber ?? null,
    bluetoothName: facts?.bluetoothName ?? null,
    macId: facts?.macId ?? null,
    lockPower: room.lockPower,
    lock: room.lock,
    cardGeneration: facts?.cardGeneration ?? 0,
    issuedRoomCards: facts?.issuedRoomCards ?? 0,
    currentStay: room.currentStay
      ? {
          stayId: room.currentStay.id,
          status: room.currentStay.status,
          checkInAt: room.currentStay.checkInAt,
          expectedCheckOutAt: room.currentStay.expectedCheckOutAt,
          guestName: room.currentStay.guestName,
          guestCount: room.currentStay.guestCount,
        }
      : null,
  };
}

/** `GET /linQuan/getRoomListByHotelId`: the rooms the account sees in its hotel, a page at a time. */
export const roomRoutes = [
  bearerRoute({
    method: ['GET', 'POST'],
    url: '/linQuan/getRoomListByHotelId',
    input: ZRoomListInput.extend({ hotelId: ZId.optional() }),
    services: [listRoomsForCards],
    async handle(ctx, input) {
      // A token works in one hotel: any other hotel is "not found", like another hotel's room.
      if (input.hotelId !== undefined && input.hotelId !== ctx.actor.hotelId) throw new AppError('NOT_FOUND');
      const { hotelId: _hotelId, ...query } = input;
      const result = await listRoomsForCards(ctx, query);
      return {
        data: {
          hotelId: ctx.actor.hotelId,
          timeZone: ctx.actor.timeZone,
          items: result.items.map((r) => gatewayRoom(r, r.cardFacts)),
          total: result.total,
          counts: result.counts,
          page: result.page,
          pageSize: result.pageSize,
        },
      };
    },
  }),
];
