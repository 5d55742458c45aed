import { z } from 'zod';
import { LIMITS, WHEN_FIELDS_VALID, ZFlag, ZId, ZLocalDate, ZMobile } from '@console/shared';
import { AppError } from '../../errors';
import type { AuthedContext } from '../../context';
import { findRoomByLock, readRoomLock } from '../../modules/locks/lock.service';
import { addLockManager, deleteLockManager, listLockManagers } from '../../modules/locks/manager.service';
import { deleteLockMessages, listLockMessages } from '../../modules/locks/message.service';
import { listUnlockRecords } from '../../modules/unlock-records/unlock-record.service';
import { sessionAction } from './action';
import { legacyPage, zLegacyPaging } from './convert';
import { legacyTime } from './format';
import { legacyRecord } from './room/records';

/**
 * `/manage/lock/*` actions of a lock's people, contents, messages and records: managers
 * (`managerList`, `managerAddNew`, `managerDelete`), what the lock holds read back live
 * (`inLockList`), lock messages (`messageList`, `deleteMessage`) and records (`checkHistory`).
 * Faces authorised on locks are in lock.ts.
 */

/** A lock is named by its room (`room_id`) or by the lock cloud's id (`lock_id`). */
const lockRef = {
  room_id: ZId.optional(),
  lock_id: z
    .string({ error: 'validation.idInvalid' })
    .trim()
    .min(1, { error: 'validation.idInvalid' })
    .max(LIMITS.roomFieldMax.lockId, { error: 'validation.idInvalid' })
    .optional(),
};
const oneLock = { error: 'validation.roomRequired', path: ['room_id'], ...WHEN_FIELDS_VALID };

async function roomOf(ctx: AuthedContext, input: { room_id?: number; lock_id?: string }): Promise<number> {
  if (input.room_id !== undefined) return input.room_id;
  if (input.lock_id !== undefined) return (await findRoomByLock(ctx, input.lock_id)).id;
  throw new AppError('VALIDATION', { messageKey: 'validation.roomRequired', fields: { room_id: 'validation.roomRequired' } });
}

export const lockAdminActions = [
  sessionAction({
    path: 'lock/managerList',
    input: z.object(lockRef).refine((v) => v.room_id !== undefined || v.lock_id !== undefined, oneLock),
    services: [listLockManagers],
    async handle(ctx, input) {
      const { items } = await listLockManagers(ctx, { roomId: await roomOf(ctx, input) });
      return {
        list: items.map((m) => ({
          id: m.id,
          room_id: m.roomId,
          staff_id: m.accountId,
          name: m.name,
          mobile: m.mobile,
          create_time: legacyTime(m.createdAt, ctx.actor.timeZone),
        })),
      };
    },
  }),

  sessionAction({
    path: 'lock/managerAddNew',
    input: z
      .object({
        ...lockRef,
        /** A member of the hotel (their account id), or someone named with a phone. */
        staff_id: ZId.optional(),
        name: z.string({ error: 'validation.holderRequired' }).trim().max(LIMITS.guestFieldMax.name, { error: 'validation.textTooLong' }).optional(),
        mobile: ZMobile.optional(),
      })
      .refine((v) => v.room_id !== undefined || v.lock_id !== undefined, oneLock),
    services: [addLockManager],
    fields: { accountId: 'staff_id' },
    async handle(ctx, input) {
      const m = await addLockManager(ctx, { roomId: await roomOf(ctx, input), accountId: input.staff_id, name: input.name, mobile: input.mobile });
      return { id: m.id };
    },
  }),

  sessionAction({
    path: 'lock/managerDelete',
    input: z.object({ id: ZId }),
    services: [deleteLockManager],
    async handle(ctx, input) {
      await deleteLockManager(ctx, { id: input.id });
      return null;
    },
  }),

  sessionAction({
    path: 'lock/inLockList',
    input: z.object(lockRef).refine((v) => v.room_id !== undefined || v.lock_id !== undefined, oneLock),
    services: [readRoomLock],
    async handle(ctx, input) {
      const { items, readAt } = await readRoomLock(ctx, { roomId: await roomOf(ctx, input) });
      const t = (key: string) => ctx.deps.i18n.t(ctx.meta.lang, key);
      return {
        read_time: legacyTime(readAt, ctx.actor.timeZone),
        list: items.map((i) => ({
          type: i.kind,
          lock_ref: i.ref,
          name: i.name,
          password: i.code,
          end_time: legacyTime(i.endAt, ctx.actor.timeZone),
          credential_id: i.credentialId,
          state: i.deliveryState,
          drift: i.drift,
          drift_text: t(`credentials.drift.${i.drift}`),
        })),
      };
    },
  }),

  sessionAction({
    path: 'lock/messageList',
    input: z.object({ ...zLegacyPaging(), room_id: ZId.optional(), unread: ZFlag.default(false) }),
    services: [listLockMessages],
    fields: { unreadOnly: 'unread' },
    async handle(ctx, input) {
      const result = await listLockMessages(ctx, { page: input.page, pageSize: input.limit, roomId: input.room_id, unreadOnly: input.unread });
      const t = (key: string, params: Record<string, unknown>) => ctx.deps.i18n.t(ctx.meta.lang, key, params);
      return {
        ...legacyPage(result, (m) => ({
          id: m.id,
          room_id: m.roomId,
          room_name: m.roomName,
          type: m.kind,
          content: t(`lockMessages.kinds.${m.kind}`, { content: m.content }),
          is_read: m.read ? 1 : 0,
          create_time: legacyTime(m.createdAt, ctx.actor.timeZone),
        })),
        unread: result.unread,
      };
    },
  }),

  sessionAction({
    path: 'lock/deleteMessage',
    input: z.object({ id: ZId }),
    services: [deleteLockMessages],
    async handle(ctx, input) {
      await deleteLockMessages(ctx, { ids: [input.id] });
      return null;
    },
  }),

  sessionAction({
    path: 'lock/checkHistory',
    input: z
      .object({ ...zLegacyPaging(), ...lockRef, start_date: ZLocalDate.optional(), end_date: ZLocalDate.optional() })
      .refine((v) => v.room_id !== undefined || v.lock_id !== undefined, oneLock)
      .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, {
        error: 'validation.endAfterStart',
        path: ['end_date'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [listUnlockRecords],
    fields: { from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const result = await listUnlockRecords(ctx, {
        roomId: await roomOf(ctx, input),
        from: input.start_date,
        to: input.end_date,
        page: input.page,
        pageSize: input.limit,
      });
      return legacyPage(result, (r) => legacyRecord(r, ctx));
    },
  }),
];
