import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput } from './primitives';

/** The audit log viewer (issue 9 §6): who changed what, when, through which face, with before and after. */

/** Who acted: a signed-in account, a third-party API key, a background job, or nobody yet (a failed sign-in). */
export const AUDIT_ACTOR_TYPES = ['account', 'api_key', 'job', 'anonymous', 'key_link'] as const;
export type TAuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** The face an action came through (the AuditLog.channel column). */
export const AUDIT_CHANNELS = ['console', 'legacy', 'gateway', 'job', 'key_page', 'api'] as const;
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
  'invoice',
  'export',
  'accessRule',
  'feed',
  'guestMessage',
  'sharedDoor',
  'housekeeping',
  'webhook',
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
  'AccessRule',
  'CalendarFeed',
  'CashierShift',
  'DayClose',
  'Lock',
  'GuestMessageTemplate',
  'WebhookEndpoint',
  'Invoice',
] as const;
export type TAuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/**
 * Every action the server writes into the audit log (`recordAudit`'s `action`, typed by this list:
 * an action that is not here does not compile), each with its label in every locale under
 * `auditActionKey(action)` (a unit test reads the actions from the server's code and the labels
 * from the 12 locale files). Kept for as long as rows may hold them: `room.lockUnpaired` was
 * written once by migration 20261124090000_lock_accounts.
 */
export const AUDIT_ACTIONS = [
  'accessRule.reset',
  'accessRule.set',
  'account.avatar',
  'account.email',
  'account.email.blocked',
  'account.email.refused',
  'account.mobile',
  'account.mobile.blocked',
  'account.mobile.refused',
  'account.nickname',
  'apikey.create',
  'apikey.revoke',
  'auth.hotel.enter',
  'auth.hotel.leave',
  'auth.lockout',
  'auth.login.blocked',
  'auth.login.failure',
  'auth.login.frozen',
  'auth.login.success',
  'auth.logout',
  'auth.password.change',
  'auth.password.reset',
  'auth.reset.request',
  'auth.session.revoke',
  'auth.session.revokeOthers',
  'card.issue',
  'card.keys.create',
  'card.keys.delete',
  'card.keys.sync',
  'card.lost',
  'card.reserve',
  'card.return',
  'card.revoke',
  'card.encode',
  'card.send',
  'card.write_failed',
  'customer.delete',
  'customer.freeze',
  'customer.unfreeze',
  'dispenser.add',
  'dispenser.delete',
  'dispenser.rename',
  'export.start',
  'face.authorize',
  'face.create',
  'face.delete',
  'face.retryAuthorization',
  'face.revokeAuthorization',
  'face.updateAuthorizationNote',
  'face.updateNote',
  'feed.add',
  'feed.confirmEmpty',
  'feed.delete',
  'feed.edit',
  'feed.read',
  'feed.regenerateExport',
  'guestMessage.sendAgain',
  'guestMessage.settings.save',
  'guestMessage.template.reset',
  'guestMessage.template.save',
  'hotel.create',
  'hotel.update',
  'hotel.setTaxRule',
  'invoice.credit',
  'invoice.issue',
  'keyPage.regenerate',
  'keyPage.revoke',
  'lock.manager.add',
  'lock.manager.delete',
  'lock.openByGuestLink',
  'lock.removeUnmanaged',
  'lock.settings',
  'lock.unlock',
  'lockAccount.budget',
  'lockAccount.connect',
  'lockAccount.disconnect',
  'lockAccount.import',
  'lockAccount.reconnect',
  'lockAccount.seamLink',
  'lockAccount.seamWebhook',
  'lockAccount.remove',
  'order.accountCodes',
  'order.charge',
  'order.closeDay',
  'order.correct',
  'order.deposit',
  'order.leftOwing',
  'order.payment',
  'order.recharge',
  'order.refund',
  'order.reportExport',
  'order.roomCharge',
  'order.settle',
  'order.shiftClose',
  'order.shiftOpen',
  'password.create',
  'password.limit',
  'password.retry',
  'password.revoke',
  'priceTemplate.apply',
  'priceTemplate.create',
  'priceTemplate.delete',
  'priceTemplate.update',
  'housekeeping.assign',
  'housekeeping.generate',
  'housekeeping.inspect',
  'housekeeping.keys',
  'housekeeping.request',
  'housekeeping.settings',
  'housekeeping.shift',
  'housekeeping.step',
  'reader.bind',
  'reader.delete',
  'reader.register',
  'reader.rename',
  'reader.unbind',
  'room.create',
  'room.delete',
  'room.lock',
  'room.lockData',
  'room.lockUnpaired',
  'room.outOfOrder',
  'room.outOfOrderEnded',
  'room.price',
  'room.status',
  'room.update',
  'roomGroup.create',
  'roomGroup.delete',
  'roomGroup.update',
  'sharedDoor.set',
  'sharedDoor.unset',
  'staff.add',
  'staff.apiKeyAuth',
  'staff.freeze',
  'staff.profile',
  'staff.remove',
  'staff.role',
  'staff.rooms',
  'staff.unfreeze',
  'stay.accessIssue',
  'stay.accessRenewUnused',
  'stay.addGuest',
  'stay.arrive',
  'stay.arrivedAtDoor',
  'stay.breakfast',
  'stay.cancel',
  'stay.changeRoom',
  'stay.checkIn',
  'stay.checkOut',
  'stay.expire',
  'stay.noShow',
  'stay.offlineCode',
  'stay.fixAccess',
  'stay.removeGuest',
  'stay.renew',
  'stay.reschedule',
  'stay.reserve',
  'webhook.create',
  'webhook.delete',
  'webhook.disabled',
  'webhook.resend',
  'webhook.rotateSecret',
  'webhook.test',
  'webhook.update',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The i18n key of an action's label: `auditLog.actions.<area>.<the rest, dots as underscores>`
 * (`stay.accessIssue` -> `auditLog.actions.stay.accessIssue`, `account.email.refused` ->
 * `auditLog.actions.account.email_refused`: an action may be the start of another).
 */
export function auditActionKey(action: string): string {
  const [area, ...rest] = action.split('.');
  return rest.length === 0 ? `auditLog.actions.${area}` : `auditLog.actions.${area}.${rest.join('_')}`;
}

/**
 * What acted when no person did: each background job (`jobContext`'s name, the audit log's
 * `actorJob`) and the automation it is part of, named in every locale under
 * `auditLog.automation.<kind>` (a unit test reads the job names from the server's code). Kept for
 * as long as rows may hold them: `feeds.read` (the feed job's first name), `stay.arrivedAtDoor`
 * (auto check-in before it said where the door's record came from), `migration` (written by
 * migration 20261124090000_lock_accounts).
 */
export const AUDIT_JOBS = {
  'stay.due': 'stayTimes',
  'stay.arrive': 'stayTimes',
  'stay.noShow': 'stayTimes',
  'stay.expire': 'stayTimes',
  'stay.sweep': 'stayTimes',
  'stay.issue': 'accessRules',
  'stay.lapse': 'accessRules',
  'stay.renewCodes': 'accessRules',
  'stay.offlineCodes': 'accessRules',
  'stay.closeDays': 'dayClose',
  'stay.housekeeping': 'housekeeping',
  'stay.arrivedAtDoor': 'doorArrival',
  'locks.callback': 'lockCallback',
  'locks.records': 'lockRecords',
  'feed.read': 'calendarFeed',
  'feeds.read': 'calendarFeed',
  export: 'export',
  'demo.locks': 'demo',
  'webhooks.deliver': 'webhooks',
  migration: 'upgrade',
  'housekeeping.keys': 'rotaKeys',
} as const;
export type TAuditJob = keyof typeof AUDIT_JOBS;
/** The automations, and `other`: a job this version does not know (never shown by its code). */
export const AUDIT_AUTOMATIONS = [...new Set(Object.values(AUDIT_JOBS)), 'other'] as const;

/**
 * Names kept in an audit row when it is written (`AuditLog.actorNames`, `AuditLog.targetNames`),
 * for what cannot be read later: the calendar feed that acted (its label, its room's or group's
 * name), a target about to be deleted. Plain values, a few short words each.
 */
export interface TAuditNames {
  /** A calendar feed's label. */
  feed?: string;
  room?: string;
  group?: string;
  guest?: string;
  /** The target's own name (a customer's, a price template's, a reader's, ...). */
  name?: string;
  /** A name the system wrote as a code (decision 023: a card key set's "Key set 1") and its parameters. */
  nameKey?: string;
  nameParams?: Record<string, string | number>;
}

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
