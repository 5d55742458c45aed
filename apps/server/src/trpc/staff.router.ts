import { ZStaffAddInput, ZStaffApiKeyAuthInput, ZStaffFrozenInput, ZStaffIdInput, ZStaffListInput, ZStaffProfileInput, ZStaffRoleInput, ZStaffRoomsInput } from '@console/shared';
import { addStaff, getStaff, listStaff, listStaffRoomChoices, removeStaff, setStaffApiKeyAuth, setStaffFrozen, setStaffProfile, setStaffRole, setStaffRooms } from '../modules/staff/staff.service';
import { authedProcedure, router } from './init';

/** Staff and authority management (issue 9 §1). */
export const staffRouter = router({
  list: authedProcedure.input(ZStaffListInput).query(({ ctx, input }) => listStaff(ctx, input)),
  get: authedProcedure.input(ZStaffIdInput).query(({ ctx, input }) => getStaff(ctx, input)),
  roomChoices: authedProcedure.input(ZStaffIdInput).query(({ ctx, input }) => listStaffRoomChoices(ctx, input)),
  add: authedProcedure.input(ZStaffAddInput).mutation(({ ctx, input }) => addStaff(ctx, input)),
  setProfile: authedProcedure.input(ZStaffProfileInput).mutation(({ ctx, input }) => setStaffProfile(ctx, input)),
  setRole: authedProcedure.input(ZStaffRoleInput).mutation(({ ctx, input }) => setStaffRole(ctx, input)),
  setRooms: authedProcedure.input(ZStaffRoomsInput).mutation(({ ctx, input }) => setStaffRooms(ctx, input)),
  setApiKeyAuth: authedProcedure.input(ZStaffApiKeyAuthInput).mutation(({ ctx, input }) => setStaffApiKeyAuth(ctx, input)),
  setFrozen: authedProcedure.input(ZStaffFrozenInput).mutation(({ ctx, input }) => setStaffFrozen(ctx, input)),
  remove: authedProcedure.input(ZStaffIdInput).mutation(async ({ ctx, input }) => {
    await removeStaff(ctx, input);
    return { ok: true };
  }),
});
