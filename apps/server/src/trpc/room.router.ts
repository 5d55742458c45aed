import {
  ZRoomListOutput,
  ZRoomGetOutput,
  ZRoomCreateOutput,
  ZRoomUpdateOutput,
  ZRoomDeleteOutput,
  ZRoomSetStatusOutput,
  ZRoomSetStatusManyOutput,
  ZRoomSetLockOutput,
  ZRoomUnlockRecordsOutput,
  ZRoomGroupListOutput,
  ZRoomGroupCreateOutput,
  ZRoomGroupUpdateOutput,
  ZRoomGroupDeleteOutput,
} from '@console/shared/dto';
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
import { createRoom, deleteRoom, updateRoom } from '../modules/room/room-edit';
import { setRoomStatus, setRoomsStatus } from '../modules/room/room-housekeeping';
import { getRoom, listRooms } from '../modules/room/room-list';
import { setLockData } from '../modules/room/room-lock-data';
import { listUnlockRecords } from '../modules/unlock-records/unlock-record.service';
import { authedProcedure, router } from './init';

const ZRoomId = z.object({ id: ZId });

export const roomRouter = router({
  list: authedProcedure
    .input(ZRoomListInput)

    .output(ZRoomListOutput)
    .query(({ ctx, input }) => listRooms(ctx, input)),
  get: authedProcedure
    .input(ZRoomId)

    .output(ZRoomGetOutput)
    .query(({ ctx, input }) => getRoom(ctx, input.id)),
  create: authedProcedure
    .input(ZRoomInput)

    .output(ZRoomCreateOutput)
    .mutation(({ ctx, input }) => createRoom(ctx, input)),
  update: authedProcedure
    .input(ZRoomUpdateInput)

    .output(ZRoomUpdateOutput)
    .mutation(({ ctx, input }) => updateRoom(ctx, input)),
  delete: authedProcedure
    .input(ZRoomIdInput)

    .output(ZRoomDeleteOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteRoom(ctx, input);
      return { ok: true };
    }),
  setStatus: authedProcedure
    .input(ZRoomStatusInput)

    .output(ZRoomSetStatusOutput)
    .mutation(({ ctx, input }) => setRoomStatus(ctx, input)),
  setStatusMany: authedProcedure
    .input(ZRoomsStatusInput)

    .output(ZRoomSetStatusManyOutput)
    .mutation(({ ctx, input }) => setRoomsStatus(ctx, input)),
  setLock: authedProcedure
    .input(ZLockDataInput)

    .output(ZRoomSetLockOutput)
    .mutation(({ ctx, input }) => setLockData(ctx, input)),
  unlockRecords: authedProcedure
    .input(ZUnlockRecordListInput)

    .output(ZRoomUnlockRecordsOutput)
    .query(({ ctx, input }) => listUnlockRecords(ctx, input)),
});

export const roomGroupRouter = router({
  list: authedProcedure.output(ZRoomGroupListOutput).query(({ ctx }) => listRoomGroups(ctx)),
  create: authedProcedure
    .input(ZRoomGroupInput)

    .output(ZRoomGroupCreateOutput)
    .mutation(({ ctx, input }) => createRoomGroup(ctx, input)),
  update: authedProcedure
    .input(ZRoomGroupUpdateInput)

    .output(ZRoomGroupUpdateOutput)
    .mutation(({ ctx, input }) => updateRoomGroup(ctx, input)),
  delete: authedProcedure
    .input(ZRoomGroupDeleteInput)

    .output(ZRoomGroupDeleteOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteRoomGroup(ctx, input);
      return { ok: true };
    }),
});
