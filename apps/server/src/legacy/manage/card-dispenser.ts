import { z } from 'zod';
import { DISPENSER_STATUSES, READER_LIMITS, WHEN_FIELDS_VALID, ZDeviceId, ZId, ZReaderName, zInt } from '@console/shared';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { addDispenser, checkDispenserStatus, getDispenser, listDispensers, type CardDispenserDto } from '../../modules/readers/dispenser.service';
import { sessionAction } from './action';
import { zLegacyPaging } from './convert';
import { legacyTime } from './format';

/**
 * `/manage/cardDispenser/*` (spec §7, issue 8 §5): register a dispenser (`add`), list them
 * (`lists`), and its status (`checkStatus`): with `status` (and `stock`, `capacity`) it records the
 * check the client made through the desk's reader service; without, it answers the last one.
 */

function legacyDispenser(d: CardDispenserDto, ctx: AuthedContext) {
  return {
    id: d.id,
    device_id: d.deviceId,
    name: d.name,
    stock: d.stock,
    capacity: d.capacity,
    status: d.status,
    status_text: ctx.deps.i18n.t(ctx.meta.lang, `deskReaders.dispenserStatus.${d.status}`),
    last_check_time: legacyTime(d.lastCheckedAt, ctx.actor.timeZone),
    create_time: legacyTime(d.createdAt, ctx.actor.timeZone),
  };
}

const ZCount = zInt({ min: 0, max: READER_LIMITS.stockMax }, 'validation.cardCountInvalid');

export const cardDispenserActions = [
  sessionAction({
    path: 'cardDispenser/add',
    input: z.object({ device_id: ZDeviceId, name: ZReaderName }),
    services: [addDispenser],
    fields: { deviceId: 'device_id' },
    async handle(ctx, input) {
      const d = await addDispenser(ctx, { deviceId: input.device_id, name: input.name });
      return legacyDispenser(d, ctx);
    },
  }),

  sessionAction({
    path: 'cardDispenser/lists',
    input: z.object(zLegacyPaging()),
    services: [listDispensers],
    async handle(ctx, input) {
      const { items } = await listDispensers(ctx);
      const start = (input.page - 1) * input.limit;
      return { list: items.slice(start, start + input.limit).map((d) => legacyDispenser(d, ctx)), total: items.length, page: input.page, limit: input.limit };
    },
  }),

  sessionAction({
    path: 'cardDispenser/checkStatus',
    input: z
      .object({
        /** The dispenser, by its id or by the device id it was registered with. */
        id: ZId.optional(),
        device_id: ZDeviceId.optional(),
        status: z.enum(DISPENSER_STATUSES, { error: 'validation.stateInvalid' }).optional(),
        stock: ZCount.optional(),
        capacity: ZCount.optional(),
      })
      .refine((v) => v.id !== undefined || v.device_id !== undefined, { error: 'validation.deviceIdRequired', path: ['device_id'], ...WHEN_FIELDS_VALID })
      .refine((v) => v.status !== 'online' || v.stock !== undefined, { error: 'validation.cardCountInvalid', path: ['stock'], ...WHEN_FIELDS_VALID }),
    services: [checkDispenserStatus, getDispenser],
    async handle(ctx, input) {
      const current = await getDispenser(ctx, input.id !== undefined ? { id: input.id } : { deviceId: input.device_id! });
      if (input.device_id !== undefined && current.deviceId !== input.device_id) {
        throw new AppError('NOT_FOUND', { messageKey: 'deskReaders.errors.dispenserNotFound' });
      }
      if (input.status === undefined) return legacyDispenser(current, ctx);
      const d = await checkDispenserStatus(ctx, { id: current.id, status: input.status, stock: input.stock, capacity: input.capacity });
      return legacyDispenser(d, ctx);
    },
  }),
];
