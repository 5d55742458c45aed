import {
  ZLockProviderOutput,
  ZLockListOutput,
  ZLockSuggestedPairsOutput,
  ZLockPairableRoomsOutput,
  ZLockPairOutput,
  ZLockStatusOutput,
  ZLockUnlockOutput,
  ZLockContentsOutput,
  ZLockRemoveUnmanagedOutput,
  ZLockMessagesOutput,
  ZLockUnreadMessagesOutput,
  ZLockMarkMessagesReadOutput,
  ZLockDeleteMessagesOutput,
  ZLockRecordsByPersonOutput,
  ZLockManagersOutput,
  ZLockAddManagerOutput,
  ZLockDeleteManagerOutput,
} from '@console/shared/dto';
import {
  ZHotelLockListInput,
  ZLockPairInput,
  ZPairableRoomsInput,
  ZLockManagerAddInput,
  ZLockManagerIdInput,
  ZLockMessageIdsInput,
  ZLockMessageListInput,
  ZRecordsByPersonInput,
  ZRemoveFromLockInput,
  ZRoomIdInput,
  ZRoomLockInput,
} from '@console/shared';
import { getRoomLock, lockProviderInfo, readRoomLock, remoteUnlock, removeUnmanaged } from '../modules/locks/lock.service';
import { addLockManager, deleteLockManager, listLockManagers } from '../modules/locks/manager.service';
import { listRecordsByPerson } from '../modules/unlock-records/unlock-record.service';
import { deleteLockMessages, listLockMessages, markLockMessagesRead, unreadLockMessages } from '../modules/locks/message.service';
import { listHotelLocks, pairableRooms, suggestedPairs } from '../modules/locks/accounts/hotel-locks';
import { pairRooms } from '../modules/locks/accounts/pairing.service';
import { authedProcedure, router } from './init';

export const lockRouter = router({
  /** Which lock cloud the console speaks to (the "simulated locks" badge). */
  provider: authedProcedure.output(ZLockProviderOutput).query(({ ctx }) => lockProviderInfo(ctx.deps)),
  /** The hotel's locks (imported from its lock accounts), with their rooms and proposed rooms. */
  list: authedProcedure
    .input(ZHotelLockListInput)

    .output(ZLockListOutput)
    .query(({ ctx, input }) => listHotelLocks(ctx, input)),
  suggestedPairs: authedProcedure.output(ZLockSuggestedPairsOutput).query(({ ctx }) => suggestedPairs(ctx)),
  pairableRooms: authedProcedure
    .input(ZPairableRoomsInput)

    .output(ZLockPairableRoomsOutput)
    .query(({ ctx, input }) => pairableRooms(ctx, input)),
  /** Rooms paired with locks of the hotel, in bulk (a null lock unpairs). */
  pair: authedProcedure
    .input(ZLockPairInput)

    .output(ZLockPairOutput)
    .mutation(({ ctx, input }) => pairRooms(ctx, input)),
  status: authedProcedure
    .input(ZRoomLockInput)

    .output(ZLockStatusOutput)
    .query(({ ctx, input }) => getRoomLock(ctx, input)),
  unlock: authedProcedure
    .input(ZRoomIdInput)

    .output(ZLockUnlockOutput)
    .mutation(({ ctx, input }) => remoteUnlock(ctx, input)),
  contents: authedProcedure
    .input(ZRoomIdInput)

    .output(ZLockContentsOutput)
    .query(({ ctx, input }) => readRoomLock(ctx, input)),
  removeUnmanaged: authedProcedure
    .input(ZRemoveFromLockInput)

    .output(ZLockRemoveUnmanagedOutput)
    .mutation(({ ctx, input }) => removeUnmanaged(ctx, input)),
  messages: authedProcedure
    .input(ZLockMessageListInput)

    .output(ZLockMessagesOutput)
    .query(({ ctx, input }) => listLockMessages(ctx, input)),
  unreadMessages: authedProcedure.output(ZLockUnreadMessagesOutput).query(({ ctx }) => unreadLockMessages(ctx)),
  markMessagesRead: authedProcedure
    .input(ZLockMessageIdsInput)

    .output(ZLockMarkMessagesReadOutput)
    .mutation(({ ctx, input }) => markLockMessagesRead(ctx, input)),
  deleteMessages: authedProcedure
    .input(ZLockMessageIdsInput)

    .output(ZLockDeleteMessagesOutput)
    .mutation(({ ctx, input }) => deleteLockMessages(ctx, input)),
  /** Unlock records of the hotel by person (a name, or one credential). */
  recordsByPerson: authedProcedure
    .input(ZRecordsByPersonInput)

    .output(ZLockRecordsByPersonOutput)
    .query(({ ctx, input }) => listRecordsByPerson(ctx, input)),
  managers: authedProcedure
    .input(ZRoomIdInput)

    .output(ZLockManagersOutput)
    .query(({ ctx, input }) => listLockManagers(ctx, input)),
  addManager: authedProcedure
    .input(ZLockManagerAddInput)

    .output(ZLockAddManagerOutput)
    .mutation(({ ctx, input }) => addLockManager(ctx, input)),
  deleteManager: authedProcedure
    .input(ZLockManagerIdInput)

    .output(ZLockDeleteManagerOutput)
    .mutation(({ ctx, input }) => deleteLockManager(ctx, input)),
});
