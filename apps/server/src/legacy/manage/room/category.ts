import { z } from 'zod';
import { ZRoomGroupInput, ZRoomGroupUpdateInput } from '@console/shared';
import { createRoomGroup, listRoomGroups, updateRoomGroup, type RoomGroupDto } from '../../../modules/room/room-group.service';
import { sessionAction } from '../action';

const legacyGroup = (g: RoomGroupDto) => ({ id: g.id, name: g.name, sort: g.sort, room_count: g.roomCount });

/** `/manage/room/category/list`, `/manage/room/addCategory`, `/manage/room/change/category`: room groups. */
export const roomCategoryActions = [
  sessionAction({
    path: 'room/category/list',
    input: z.object({}),
    services: [listRoomGroups],
    handle: async (ctx) => (await listRoomGroups(ctx)).map(legacyGroup),
  }),
  sessionAction({
    path: 'room/addCategory',
    input: ZRoomGroupInput,
    services: [createRoomGroup],
    handle: async (ctx, input) => legacyGroup(await createRoomGroup(ctx, input)),
  }),
  sessionAction({
    path: 'room/change/category',
    input: ZRoomGroupUpdateInput,
    services: [updateRoomGroup],
    handle: async (ctx, input) => legacyGroup(await updateRoomGroup(ctx, input)),
  }),
];
