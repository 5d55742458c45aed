import { z } from 'zod';
import { ZCustomPasswordCode, ZGuestInput, ZId, ZPasswordCreateInput } from '@console/shared';
import type { AuthedContext } from '../../../context';
import { createPassword, limitStayPasswords, listPasswords, revokePassword, type PasswordDto } from '../../../modules/credentials/password.service';
import { sessionAction } from '../action';
import { ZLegacyTime, instantOrFail, legacyPage, zLegacyPaging } from '../convert';
import { legacyTime } from '../format';

/**
 * `/manage/room/*` actions of lock passwords (docs/legacy-protocol.md, "Lock passwords"): issue
 * (`password`: any type; `addPassword`: a custom code), list the active ones and the history,
 * delete and call back (both revoke: one rule, two reasons), and limit a tenant's passwords.
 * Every rule is the password service's; this file only renames fields.
 */

/** Service field names -> the legacy ones, so errors name what the client sent. */
const PASSWORD_FIELDS = {
  id: 'password_id',
  kind: 'type',
  code: 'password',
  holderName: 'name',
  stayId: 'tenant_id',
  accountId: 'staff_id',
  validFrom: 'start_time',
  validUntil: 'end_time',
};

const create = ZPasswordCreateInput.shape;

/** Who and when, the same for every way of issuing a password. */
const holderAndValidity = {
  room_id: ZId,
  /** For the stay (tenant) in the room now: its guest, valid for the stay. */
  tenant_id: ZId.optional(),
  /** For a staff member or manager of the hotel (their account id). */
  staff_id: ZId.optional(),
  /** "Name or phone" of the holder, for a password that is not a stay's. */
  name: create.holderName,
  mobile: ZGuestInput.shape.mobile,
  start_time: ZLegacyTime.optional(),
  /** Absent: permanent (for a stay: until its check-out). */
  end_time: ZLegacyTime.optional(),
};

type HolderAndValidity = z.output<z.ZodObject<typeof holderAndValidity>>;

function issue(ctx: AuthedContext, input: HolderAndValidity & { type: PasswordDto['kind']; password?: string }) {
  return createPassword(ctx, {
    roomId: input.room_id,
    kind: input.type,
    code: input.password,
    holderName: input.name || input.mobile || '',
    stayId: input.tenant_id,
    accountId: input.staff_id,
    validFrom: input.start_time !== undefined ? instantOrFail(input.start_time, ctx.actor, 'start_time') : undefined,
    validUntil: input.end_time !== undefined ? instantOrFail(input.end_time, ctx.actor, 'end_time') : undefined,
  });
}

/** A password as legacy clients read it: snake_case, hotel times, codes with their texts in the request's language. */
export function legacyPassword(p: PasswordDto, ctx: AuthedContext) {
  const t = (key: string) => ctx.deps.i18n.t(ctx.meta.lang, key);
  const zone = ctx.actor.timeZone;
  return {
    id: p.id,
    room_id: p.roomId,
    room_name: p.roomName,
    tenant_id: p.stayId,
    staff_id: p.accountId,
    type: p.kind,
    name: p.holderName,
    password: p.code,
    start_time: legacyTime(p.validFrom, zone),
    end_time: legacyTime(p.validUntil, zone),
    permanent: p.validUntil === null ? 1 : 0,
    expired: p.expired ? 1 : 0,
    state: p.deliveryState,
    state_text: t(`credentials.states.${p.deliveryState}`),
    error: p.lastError,
    error_text: p.lastError ? t(`credentials.errors.${p.lastError}`) : null,
    attempts: p.attempts,
    revoke_reason: p.revokeReason,
    revoke_reason_text: p.revokeReason ? t(`credentials.revokeReasons.${p.revokeReason}`) : null,
    /** The generated password this one replaced (a new validity of a generated code is a new code). */
    replaces_id: p.replacesId,
    /** The lock cloud would not issue a code for the hours asked twice: the validity is the nearest it took. */
    validity_adjusted: p.validityAdjusted ? 1 : 0,
    delivered_time: legacyTime(p.deliveredAt, zone),
    removed_time: legacyTime(p.removedAt, zone),
    create_time: legacyTime(p.createdAt, zone),
  };
}

const listInput = z.object({ ...zLegacyPaging(), room_id: ZId, tenant_id: ZId.optional() });

export const roomPasswordActions = [
  sessionAction({
    path: 'room/password',
    input: z.object({ ...holderAndValidity, type: create.kind, password: create.code }),
    services: [createPassword],
    fields: PASSWORD_FIELDS,
    handle: async (ctx, input) => legacyPassword(await issue(ctx, input), ctx),
  }),

  sessionAction({
    path: 'room/addPassword',
    input: z.object({ ...holderAndValidity, password: ZCustomPasswordCode }),
    services: [createPassword],
    fields: PASSWORD_FIELDS,
    handle: async (ctx, input) => legacyPassword(await issue(ctx, { ...input, type: 'custom' }), ctx),
  }),

  sessionAction({
    path: 'room/passwordList',
    input: listInput,
    services: [listPasswords],
    fields: PASSWORD_FIELDS,
    async handle(ctx, input) {
      const page = await listPasswords(ctx, { roomId: input.room_id, stayId: input.tenant_id, scope: 'active', page: input.page, pageSize: input.limit });
      return legacyPage(page, (p) => legacyPassword(p, ctx));
    },
  }),

  sessionAction({
    path: 'room/passwordHistory',
    input: listInput,
    services: [listPasswords],
    fields: PASSWORD_FIELDS,
    async handle(ctx, input) {
      const page = await listPasswords(ctx, { roomId: input.room_id, stayId: input.tenant_id, scope: 'history', page: input.page, pageSize: input.limit });
      return legacyPage(page, (p) => legacyPassword(p, ctx));
    },
  }),

  sessionAction({
    path: 'room/deletePassword',
    input: z.object({ password_id: ZId }),
    services: [revokePassword],
    fields: PASSWORD_FIELDS,
    handle: async (ctx, input) => legacyPassword(await revokePassword(ctx, { id: input.password_id, reason: 'manual' }), ctx),
  }),

  sessionAction({
    path: 'room/callbackPassword',
    input: z.object({ password_id: ZId }),
    services: [revokePassword],
    fields: PASSWORD_FIELDS,
    handle: async (ctx, input) => legacyPassword(await revokePassword(ctx, { id: input.password_id, reason: 'called_back' }), ctx),
  }),

  sessionAction({
    path: 'room/tenant/limitPassword',
    input: z.object({ tenant_id: ZId, end_time: ZLegacyTime }),
    services: [limitStayPasswords],
    fields: PASSWORD_FIELDS,
    async handle(ctx, input) {
      const result = await limitStayPasswords(ctx, { stayId: input.tenant_id, validUntil: instantOrFail(input.end_time, ctx.actor, 'end_time') });
      return {
        tenant_id: result.stayId,
        end_time: legacyTime(result.validUntil, ctx.actor.timeZone),
        limited: result.limited,
        replaced: result.replaced,
        revoked: result.revoked,
        list: result.items.map((p) => legacyPassword(p, ctx)),
      };
    },
  }),
];
