import { z } from 'zod';
import {
  ZId,
  ZLockDataInput,
  ZRoomGroupDeleteInput,
  ZRoomGroupInput,
  ZRoomGroupUpdateInput,
  ZRoomIdInput,
  ZRoomInput,
  ZRoomListInput,
  ZRoomStatusInput,
  ZRoomUpdateInput,
  ZRoomsStatusInput,
  ZUnlockRecordListInput,
} from '@console/shared';
import { createRoomGroup, deleteRoomGroup, listRoomGroups, updateRoomGroup } from '../modules/room/room-group.service';
import { createRoom, deleteRoom, getRoom, listRooms, setLockData, setRoomStatus, setRoomsStatus, updateRoom } from '../modules/room/room.service';
import { listUnlockRecords } from '../modules/unlock/unlock-record.service';
import { authedProcedure, router } from './init';

const ZRoomId = z.object({ id: ZId });

export const roomRouter = router({
  list: authedProcedure.input(ZRoomListInput).query(({ ctx, input }) => listRooms(ctx, input)),
  get: authedProcedure.input(ZRoomId).query(({ ctx, input }) => getRoom(ctx, input.id)),
  create: authedProcedure.input(ZRoomInput).mutation(({ ctx, input }) => createRoom(ctx, input)),
  update: authedProcedure.input(ZRoomUpdateInput).mutation(({ ctx, input }) => updateRoom(ctx, input)),
  delete: authedProcedure.input(ZRoomIdInput).mutation(async ({ ctx, input }) => {
    await deleteRoom(ctx, input);
    return { ok: true };
  }),
  setStatus: authedProcedure.input(ZRoomStatusInput).mutation(({ ctx, input }) => setRoomStatus(ctx, input)),
  setStatusMany: authedProcedure.input(ZRoomsStatusInput).mutation(({ ctx, input }) => setRoomsStatus(ctx, input)),
  setLock: authedProcedure.input(ZLockDataInput).mutation(({ ctx, input }) => setLockData(ctx, input)),
  unlockRecords: authedProcedure.input(ZUnlockRecordListInput).query(({ ctx, input }) => listUnlockRecords(ctx, input)),
});

export const roomGroupRouter = router({
  list: authedProcedure.query(({ ctx }) => listRoomGroups(ctx)),
  create: authedProcedure.input(ZRoomGroupInput).mutation(({ ctx, input }) => createRoomGroup(ctx, input)),
  update: authedProcedure.input(ZRoomGroupUpdateInput).mutation(({ ctx, input }) => updateRoomGroup(ctx, input)),
  delete: authedProcedure.input(ZRoomGroupDeleteInput).mutation(async ({ ctx, input }) => {
    await deleteRoomGroup(ctx, input);
    return { ok: true };
  }),
});
