import { ZId, ZRoomListInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { roomScope } from '../../modules/room/room-access';
import { listRooms, type RoomListItem } from '../../modules/room/room.service';
import { bearerRoute } from './route';

interface RoomCardFacts {
  lockNumber: number | null;
  cardGeneration: number;
  bluetoothName: string | null;
  macId: string | null;
  issuedRoomCards: number;
}

/**
 * What a card issuer needs of each room beyond the board's fields: the room's number on cards
 * and its lock, its newest guest-card generation, and how many room cards are issued for it now.
 * Read for the page's rooms only, in the actor's room scope.
 */
async function cardFacts(ctx: AuthedContext, roomIds: number[]): Promise<Map<number, RoomCardFacts>> {
  const { deps, actor } = ctx;
  if (!roomIds.length) return new Map();
  const [rooms, issued] = await Promise.all([
    deps.prisma.room.findMany({ where: { id: { in: roomIds }, ...roomScope(actor) }, select: { id: true, lockNumber: true, cardGeneration: true, bluetoothName: true, macId: true } }),
    deps.prisma.cardIssue.groupBy({ by: ['roomId'], where: { hotelId: actor.hotelId, kind: 'room', roomId: { in: roomIds }, state: 'issued' }, _count: { _all: true } }),
  ]);
  const counts = new Map(issued.map((g) => [g.roomId, g._count._all]));
  return new Map(rooms.map((r) => [r.id, { lockNumber: r.lockNumber, cardGeneration: r.cardGeneration, bluetoothName: r.bluetoothName, macId: r.macId, issuedRoomCards: counts.get(r.id) ?? 0 }]));
}

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
    services: [listRooms],
    async handle(ctx, input) {
      // A token works in one hotel: any other hotel is "not found", like another hotel's room.
      if (input.hotelId !== undefined && input.hotelId !== ctx.actor.hotelId) throw new AppError('NOT_FOUND');
      const { hotelId: _hotelId, ...query } = input;
      const result = await listRooms(ctx, query);
      const facts = await cardFacts(ctx, result.items.map((r) => r.id));
      return {
        data: {
          hotelId: ctx.actor.hotelId,
          timeZone: ctx.actor.timeZone,
          items: result.items.map((r) => gatewayRoom(r, facts.get(r.id))),
          total: result.total,
          counts: result.counts,
          page: result.page,
          pageSize: result.pageSize,
        },
      };
    },
  }),
];
