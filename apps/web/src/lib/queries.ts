import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import type { TRoomStatus } from '@console/shared';
import { trpc } from './trpc';
import type { RouterOutputs } from './trpc-types';

/**
 * The shared code's api (issue 19 §5): the queries of components/ and lib/ (the room and group
 * pickers, the shared doors, the export dialog, the desk readers' environment), and what a change
 * there makes stale. Features have their own api modules (`features/<area>/api.ts`); shared code
 * imports no feature, so what it asks for is defined here, each with the options it always had.
 */
export const sharedQueries = {
  /** The hotel's room groups, for the group selects and the template dialog (no error shown of their own). */
  roomGroups: () => trpc.roomGroup.list.queryOptions(),
  /** A page of rooms as the room picker searches them, asked for while it is open. */
  pickerRooms: (input: { page: number; pageSize: number; search?: string; status?: TRoomStatus; freeFrom?: string; freeTo?: string }, isOpen: boolean) =>
    trpc.room.list.queryOptions({ ...input, sort: 'name_asc' }, { enabled: isOpen, placeholderData: keepPreviousData }),
  /** The hotel's shared doors (the room board's strip, the lock pages' editor). */
  sharedDoors: () => trpc.sharedDoor.list.queryOptions(),
  /** The shared doors a stay opens. */
  staySharedDoors: (stayId: number) => trpc.sharedDoor.ofStay.queryOptions({ stayId }),
  /** The shared-door editor's choices, for members who may change them: the unpaired locks, the rooms and the groups. */
  sharedDoorLocks: (canManage: boolean) => trpc.lock.list.queryOptions({ page: 1, pageSize: 100, filter: 'unpaired' }, { enabled: canManage }),
  sharedDoorRooms: (canManage: boolean) => trpc.room.list.queryOptions({ page: 1, pageSize: 100 }, { enabled: canManage }),
  sharedDoorGroups: (canManage: boolean) => trpc.roomGroup.list.queryOptions(undefined, { enabled: canManage }),
  /** An export's job, from what starting it answered, followed while the server writes the file. */
  exportStatus: (started: RouterOutputs['export']['start'] | undefined) =>
    trpc.export.status.queryOptions(
      { id: started?.id ?? '' },
      {
        enabled: started?.id !== undefined,
        initialData: started,
        refetchInterval: (query) => (query.state.data && (query.state.data.state === 'waiting' || query.state.data.state === 'running') ? 400 : false),
      },
    ),
  /** What the server says about the desk readers: whether it runs the simulator, and its services' URLs when not the usual ones. It does not change while the server runs. */
  deskReaderEnvironment: () => trpc.reader.environment.queryOptions(undefined, { staleTime: Infinity, gcTime: Infinity, meta: { showsErrors: true } }),
};

/** A shared door set or made a plain lock again: every shared-door query is stale. */
export const invalidateSharedDoors = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.sharedDoor.pathKey() });

/** After "fix now" of an arrival's key: the stay, its room's tile and credentials, and Today. */
export async function invalidateAfterKeyFix(queryClient: QueryClient): Promise<void> {
  await Promise.all([trpc.room, trpc.stay, trpc.today, trpc.password].map((router) => queryClient.invalidateQueries({ queryKey: router.pathKey() })));
}
