import { z } from 'zod';
import { ZId, ZLockGetInput, ZRecordsByPersonInput, ZHotelLockListInput } from '@console/shared';
import { ZLockGetOutput, ZLockListOutput, ZLockRecordsByPersonOutput, ZLockStatusOutput } from '@console/shared/dto';
import { cursorOf } from '../../db/keyset';
import { getHotelLock, listHotelLocks } from '../../modules/locks/accounts/hotel-locks';
import { getRoomLock } from '../../modules/locks/lock.service';
import { listRecordsByPersonAfter } from '../../modules/unlock-records/unlock-record.service';
import { ZCursorQuery, cursorPage, keysetFrom, keysetPage, numberedPage, pageFrom } from './cursor';
import { apiRoute, fieldsOf, itemOf, type ApiRoute } from './route';

const ZRoomPath = z.object({ roomId: ZId });
const ZUnlockRecordItem = itemOf(ZLockRecordsByPersonOutput);
const ZLockItem = itemOf(ZLockListOutput);

/** The hotel's locks and their unlock records over the JSON API (the services of tRPC's `lock.*` and `lock.recordsByPerson`). */
export const LOCK_ROUTES: ApiRoute[] = [
  apiRoute({
    method: 'GET',
    path: '/locks',
    operationId: 'listLocks',
    tag: 'Locks',
    summary: "List the hotel's locks",
    description: 'Each with its rooms, whether it is online, its battery and when it was last seen.',
    permission: 'room.manage',
    query: fieldsOf(ZHotelLockListInput, 'page', 'pageSize').extend(ZCursorQuery.shape),
    response: cursorPage(ZLockItem),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const { page, pageSize } = pageFrom(cursor, limit);
      const result = await listHotelLocks(ctx, { ...filters, page, pageSize });
      return numberedPage(result.items, page, pageSize, result.total);
    },
  }),
  apiRoute({
    method: 'GET',
    path: '/locks/{lockId}',
    operationId: 'getLock',
    tag: 'Locks',
    summary: 'Get a lock and its state',
    description:
      'By its `id` in the lock list: its room (or the shared door it is), whether it is online, its battery and when it was last seen, as last reported by the lock cloud.',
    permission: 'room.manage',
    params: z.object({ lockId: ZLockGetInput.shape.id }),
    response: ZLockGetOutput,
    handle: (ctx, { params }) => getHotelLock(ctx, { id: params.lockId }),
  }),
  apiRoute({
    method: 'GET',
    path: '/rooms/{roomId}/lock',
    operationId: 'getRoomLock',
    tag: 'Locks',
    summary: "A room's lock and its state",
    description: "As last reported by the lock cloud (online, battery, last seen, and the door when the lock's sensor reports it).",
    permission: 'room.read',
    params: ZRoomPath,
    response: ZLockStatusOutput,
    handle: (ctx, { params }) => getRoomLock(ctx, { roomId: params.roomId }),
  }),
  apiRoute({
    method: 'GET',
    path: '/unlock-records',
    operationId: 'listUnlockRecords',
    tag: 'Locks',
    summary: 'List unlock records',
    description: "Newest first; by room, one credential (`password:12`, `card:7`, `face:3`), a person's name, hotel days.",
    permission: 'room.read',
    query: fieldsOf(ZRecordsByPersonInput, 'page', 'pageSize').extend(ZCursorQuery.shape),
    response: cursorPage(ZUnlockRecordItem),
    async handle(ctx, { query }) {
      const { cursor, limit, ...filters } = query;
      const rows = await listRecordsByPersonAfter(ctx, filters, keysetFrom(cursor), limit + 1);
      return keysetPage(rows, limit, (r) => cursorOf(r.occurredAt, r.id));
    },
  }),
];
