import {
  ZStaffListOutput,
  ZStaffGetOutput,
  ZStaffRoomChoicesOutput,
  ZStaffAddOutput,
  ZStaffSetProfileOutput,
  ZStaffSetRoleOutput,
  ZStaffSetRoomsOutput,
  ZStaffSetApiKeyAuthOutput,
  ZStaffSetFrozenOutput,
  ZStaffRemoveOutput,
} from '@console/shared/dto';
import {
  ZStaffAddInput,
  ZStaffApiKeyAuthInput,
  ZStaffFrozenInput,
  ZStaffIdInput,
  ZStaffListInput,
  ZStaffProfileInput,
  ZStaffRoleInput,
  ZStaffRoomsInput,
} from '@console/shared';
import {
  getStaff,
  listStaff,
  listStaffRoomChoices,
  removeStaff,
  setStaffApiKeyAuth,
  setStaffFrozen,
  setStaffProfile,
  setStaffRole,
  setStaffRooms,
} from '../modules/staff/staff.service';
import { addStaff } from '../modules/staff/add-staff';
import { authedProcedure, router } from './init';

/** Staff and authority management (issue 9 §1). */
export const staffRouter = router({
  list: authedProcedure
    .input(ZStaffListInput)

    .output(ZStaffListOutput)
    .query(({ ctx, input }) => listStaff(ctx, input)),
  get: authedProcedure
    .input(ZStaffIdInput)

    .output(ZStaffGetOutput)
    .query(({ ctx, input }) => getStaff(ctx, input)),
  roomChoices: authedProcedure
    .input(ZStaffIdInput)

    .output(ZStaffRoomChoicesOutput)
    .query(({ ctx, input }) => listStaffRoomChoices(ctx, input)),
  add: authedProcedure
    .input(ZStaffAddInput)

    .output(ZStaffAddOutput)
    .mutation(({ ctx, input }) => addStaff(ctx, input)),
  setProfile: authedProcedure
    .input(ZStaffProfileInput)

    .output(ZStaffSetProfileOutput)
    .mutation(({ ctx, input }) => setStaffProfile(ctx, input)),
  setRole: authedProcedure
    .input(ZStaffRoleInput)

    .output(ZStaffSetRoleOutput)
    .mutation(({ ctx, input }) => setStaffRole(ctx, input)),
  setRooms: authedProcedure
    .input(ZStaffRoomsInput)

    .output(ZStaffSetRoomsOutput)
    .mutation(({ ctx, input }) => setStaffRooms(ctx, input)),
  setApiKeyAuth: authedProcedure
    .input(ZStaffApiKeyAuthInput)

    .output(ZStaffSetApiKeyAuthOutput)
    .mutation(({ ctx, input }) => setStaffApiKeyAuth(ctx, input)),
  setFrozen: authedProcedure
    .input(ZStaffFrozenInput)

    .output(ZStaffSetFrozenOutput)
    .mutation(({ ctx, input }) => setStaffFrozen(ctx, input)),
  remove: authedProcedure
    .input(ZStaffIdInput)

    .output(ZStaffRemoveOutput)
    .mutation(async ({ ctx, input }) => {
      await removeStaff(ctx, input);
      return { ok: true };
    }),
});
