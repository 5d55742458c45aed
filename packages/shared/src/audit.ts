import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput } from './primitives';

/** The audit log viewer (issue 9 §6): who changed what, when, through which face, with before and after. */

/** Who acted: a signed-in account, a third-party API key, a background job, or nobody yet (a failed sign-in). */
export const AUDIT_ACTOR_TYPES = ['account', 'api_key', 'job', 'anonymous', 'key_link'] as const;
export type TAuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** The face an action came through (the AuditLog.channel column). */
export const AUDIT_CHANNELS = ['console', 'legacy', 'gateway', 'job', 'key_page'] as const;
export type TAuditChannel = (typeof AUDIT_CHANNELS)[number];

/**
 * The areas of the actions the services record (the first part of `action`, before its first dot),
 * which the console names in the operator's language; an action of another area is shown as it is.
 */
export const AUDIT_AREAS = [
  'auth',
  'account',
  'customer',
  'room',
  'roomGroup',
  'priceTemplate',
  'stay',
  'password',
  'face',
  'card',
  'lock',
  'lockAccount',
  'keyPage',
  'reader',
  'dispenser',
  'hotel',
  'staff',
  'apikey',
  'order',
  'export',
] as const;
export type TAuditArea = (typeof AUDIT_AREAS)[number];

/** What an audit entry's target is (AuditLog.entityType), named by the console when it knows it. */
export const AUDIT_ENTITY_TYPES = [
  'Room',
  'RoomGroup',
  'Stay',
  'Customer',
  'Account',
  'Session',
  'Hotel',
  'PriceTemplate',
  'LockPassword',
  'Face',
  'FaceAuthorization',
  'CardIssue',
  'CardEncryption',
  'CardReader',
  'CardDispenser',
  'LockManager',
  'LockAccount',
  'Membership',
  'ApiKey',
  'Folio',
  'OrderEntry',
  'Export',
] as const;

export const AUDIT_LIMITS = { actionMax: 64, entityTypeMax: 64, entityIdMax: 64 } as const;

/** An action, or the start of one up to a dot (`room` is every `room.*` action, `room.update` that one). */
const ACTION_REGEX = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*\.?$/;

/**
 * A page of the hotel's audit log, newest first. Dates are the hotel's calendar days (from its
 * first moment to the end of `to`). `action` matches the action itself and every action under
 * it: `room` finds `room.update` and `room.status`, never `roomGroup.create`.
 */
export const ZAuditListInput = ZPageInput.extend({
  actorType: z.enum(AUDIT_ACTOR_TYPES, { error: 'validation.kindInvalid' }).optional(),
  actorAccountId: ZId.optional(),
  actorApiKeyId: ZId.optional(),
  action: z
    .string({ error: 'validation.textInvalid' })
    .trim()
    .max(AUDIT_LIMITS.actionMax, { error: 'validation.textTooLong' })
    .refine((v) => v === '' || ACTION_REGEX.test(v), { error: 'validation.invalid' })
    .transform((v) => v.replace(/\.$/, ''))
    .optional(),
  entityType: z
    .string({ error: 'validation.textInvalid' })
    .trim()
    .max(AUDIT_LIMITS.entityTypeMax, { error: 'validation.textTooLong' })
    .refine((v) => v === '' || /^[A-Za-z][A-Za-z0-9_]*$/.test(v), { error: 'validation.invalid' })
    .optional(),
  entityId: z.string({ error: 'validation.textInvalid' }).trim().max(AUDIT_LIMITS.entityIdMax, { error: 'validation.textTooLong' }).optional(),
  channel: z.enum(AUDIT_CHANNELS, { error: 'validation.kindInvalid' }).optional(),
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });
export type TAuditListInput = z.input<typeof ZAuditListInput>;
