import {
  ZHousekeepingAssignOutput,
  ZHousekeepingDayOutput,
  ZHousekeepingGenerateOutput,
  ZHousekeepingMyRoomsOutput,
  ZHousekeepingSettingsOutput,
  ZHousekeepingStepOutput,
  ZAttendantDto,
  ZHousekeepingTaskDto,
  ZOutOfOrderDeleteOutput,
  ZOutOfOrderDto,
  ZOutOfOrderListOutput,
  ZCardReserveOutput,
} from '@console/shared/dto';
import { z } from 'zod';
import {
  ZAssignInput,
  ZAttendantCardInput,
  ZHousekeepingDayInput,
  ZHousekeepingSettingsInput,
  ZId,
  ZInspectInput,
  ZOutOfOrderInput,
  ZOutOfOrderListInput,
  ZRequestCleanInput,
  ZShiftInput,
  ZTaskStepInput,
} from '@console/shared';
import { assignRooms, housekeepingDay, myRooms } from '../modules/housekeeping/tasks';
import { generateDay } from '../modules/housekeeping/task-generation';
import { inspectTask, requestClean, stepTask } from '../modules/housekeeping/task-steps';
import { setHousekeepingSettings, setShift } from '../modules/housekeeping/housekeeping-settings';
import { reserveAttendantCard } from '../modules/housekeeping/attendant-card';
import { createOutOfOrder, deleteOutOfOrder, listOutOfOrder } from '../modules/housekeeping/out-of-order';
import { authedProcedure, router } from './init';

/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md): the supervisor's day, the attendant's rooms,
 * their steps and the inspection; rooms out of order by dates. Every rule is in modules/housekeeping.
 */
export const housekeepingRouter = router({
  day: authedProcedure
    .input(ZHousekeepingDayInput)
    .output(ZHousekeepingDayOutput)
    .query(({ ctx, input }) => housekeepingDay(ctx, input)),
  myRooms: authedProcedure
    .input(ZHousekeepingDayInput)
    .output(ZHousekeepingMyRoomsOutput)
    .query(({ ctx, input }) => myRooms(ctx, input)),
  generate: authedProcedure
    .input(ZHousekeepingDayInput)
    .output(ZHousekeepingGenerateOutput)
    .mutation(({ ctx, input }) => generateDay(ctx, input)),
  assign: authedProcedure
    .input(ZAssignInput)
    .output(ZHousekeepingAssignOutput)
    .mutation(({ ctx, input }) => assignRooms(ctx, input)),
  step: authedProcedure
    .input(ZTaskStepInput)
    .output(ZHousekeepingStepOutput)
    .mutation(({ ctx, input }) => stepTask(ctx, input)),
  inspect: authedProcedure
    .input(ZInspectInput)
    .output(ZHousekeepingStepOutput)
    .mutation(({ ctx, input }) => inspectTask(ctx, input)),
  requestClean: authedProcedure
    .input(ZRequestCleanInput)
    .output(ZHousekeepingTaskDto)
    .mutation(({ ctx, input }) => requestClean(ctx, input)),
  setShift: authedProcedure
    .input(ZShiftInput)
    .output(ZAttendantDto)
    .mutation(({ ctx, input }) => setShift(ctx, input)),
  /** Step one of writing an attendant's card (docs/housekeeping-keys.md "Cards"); step two is `card.confirm`. */
  reserveCard: authedProcedure
    .input(ZAttendantCardInput)
    .output(ZCardReserveOutput)
    .mutation(({ ctx, input }) => reserveAttendantCard(ctx, input)),
  setSettings: authedProcedure
    .input(ZHousekeepingSettingsInput)
    .output(ZHousekeepingSettingsOutput)
    .mutation(({ ctx, input }) => setHousekeepingSettings(ctx, input)),
  outOfOrderList: authedProcedure
    .input(ZOutOfOrderListInput)
    .output(ZOutOfOrderListOutput)
    .query(({ ctx, input }) => listOutOfOrder(ctx, input)),
  outOfOrderCreate: authedProcedure
    .input(ZOutOfOrderInput)
    .output(ZOutOfOrderDto)
    .mutation(({ ctx, input }) => createOutOfOrder(ctx, input)),
  outOfOrderDelete: authedProcedure
    .input(z.object({ id: ZId }))
    .output(ZOutOfOrderDeleteOutput)
    .mutation(({ ctx, input }) => deleteOutOfOrder(ctx, input)),
});
