import { ZHotelLockListInput, ZLockPairInput, ZPairableRoomsInput, ZLockManagerAddInput, ZLockManagerIdInput, ZLockMessageIdsInput, ZLockMessageListInput, ZRecordsByPersonInput, ZRemoveFromLockInput, ZRoomIdInput, ZRoomLockInput } from '@console/shared';
import { getRoomLock, lockProviderInfo, readRoomLock, remoteUnlock, removeUnmanaged } from '../modules/locks/lock.service';
import { addLockManager, deleteLockManager, listLockManagers } from '../modules/locks/manager.service';
import { listRecordsByPerson } from '../modules/unlock/unlock-record.service';
import { deleteLockMessages, listLockMessages, markLockMessagesRead, unreadLockMessages } from '../modules/locks/message.service';
import { listHotelLocks, pairableRooms, pairRooms, suggestedPairs } from '../modules/locks/accounts/pairing.service';
import { authedProcedure, router } from './init';

export const lockRouter = router({
  /** Which lock cloud the console speaks to (the "simulated locks" badge). */
  provider: authedProcedure.query(({ ctx }) => lockProviderInfo(ctx.deps)),
  /** The hotel's locks (imported from its lock accounts), with their rooms and proposed rooms. */
  list: authedProcedure.input(ZHotelLockListInput).query(({ ctx, input }) => listHotelLocks(ctx, input)),
  suggestedPairs: authedProcedure.query(({ ctx }) => suggestedPairs(ctx)),
  pairableRooms: authedProcedure.input(ZPairableRoomsInput).query(({ ctx, input }) => pairableRooms(ctx, input)),
  /** Rooms paired with locks of the hotel, in bulk (a null lock unpairs). */
  pair: authedProcedure.input(ZLockPairInput).mutation(({ ctx, input }) => pairRooms(ctx, input)),
  status: authedProcedure.input(ZRoomLockInput).query(({ ctx, input }) => getRoomLock(ctx, input)),
  unlock: authedProcedure.input(ZRoomIdInput).mutation(({ ctx, input }) => remoteUnlock(ctx, input)),
  contents: authedProcedure.input(ZRoomIdInput).query(({ ctx, input }) => readRoomLock(ctx, input)),
  removeUnmanaged: authedProcedure.input(ZRemoveFromLockInput).mutation(({ ctx, input }) => removeUnmanaged(ctx, input)),
  messages: authedProcedure.input(ZLockMessageListInput).query(({ ctx, input }) => listLockMessages(ctx, input)),
  unreadMessages: authedProcedure.query(({ ctx }) => unreadLockMessages(ctx)),
  markMessagesRead: authedProcedure.input(ZLockMessageIdsInput).mutation(({ ctx, input }) => markLockMessagesRead(ctx, input)),
  deleteMessages: authedProcedure.input(ZLockMessageIdsInput).mutation(({ ctx, input }) => deleteLockMessages(ctx, input)),
  /** Unlock records of the hotel by person (a name, or one credential). */
  recordsByPerson: authedProcedure.input(ZRecordsByPersonInput).query(({ ctx, input }) => listRecordsByPerson(ctx, input)),
  managers: authedProcedure.input(ZRoomIdInput).query(({ ctx, input }) => listLockManagers(ctx, input)),
  addManager: authedProcedure.input(ZLockManagerAddInput).mutation(({ ctx, input }) => addLockManager(ctx, input)),
  deleteManager: authedProcedure.input(ZLockManagerIdInput).mutation(({ ctx, input }) => deleteLockManager(ctx, input)),
});
