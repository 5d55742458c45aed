import { ZSharedDoorGetOutput, ZSharedDoorListOutput, ZSharedDoorOfStayOutput, ZSharedDoorSetOutput, ZSharedDoorUnsetOutput } from '@console/shared/dto';
import { ZSharedDoorLockInput, ZSharedDoorSetInput, ZStayIdInput } from '@console/shared';
import { getSharedDoor, listSharedDoors, setSharedDoor, stayDoors, unsetSharedDoor } from '../modules/shared-doors/shared-door.service';
import { authedProcedure, router } from './init';

/** Shared doors (issue 20 §5, docs/shared-doors.md): entrance, lift, gym and parking doors serving rooms and groups. */
export const sharedDoorRouter = router({
  list: authedProcedure.output(ZSharedDoorListOutput).query(({ ctx }) => listSharedDoors(ctx)),
  get: authedProcedure
    .input(ZSharedDoorLockInput)
    .output(ZSharedDoorGetOutput)
    .query(({ ctx, input }) => getSharedDoor(ctx, input)),
  set: authedProcedure
    .input(ZSharedDoorSetInput)
    .output(ZSharedDoorSetOutput)
    .mutation(({ ctx, input }) => setSharedDoor(ctx, input)),
  unset: authedProcedure
    .input(ZSharedDoorLockInput)
    .output(ZSharedDoorUnsetOutput)
    .mutation(({ ctx, input }) => unsetSharedDoor(ctx, input)),
  ofStay: authedProcedure
    .input(ZStayIdInput)
    .output(ZSharedDoorOfStayOutput)
    .query(({ ctx, input }) => stayDoors(ctx, input)),
});
