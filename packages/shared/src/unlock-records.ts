import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput } from './primitives';

/** Unlock records (what a lock says happened at its door), shared by the web console and the server. */

/** What an unlock record says happened (stored as codes, translated by the console). */
export const UNLOCK_EVENTS = ['opened', 'open_refused', 'locked', 'tamper_alarm', 'keypad_locked_out'] as const;
export type TUnlockEvent = (typeof UNLOCK_EVENTS)[number];
/** Where an unlock record came from. */
export const UNLOCK_SOURCES = ['lock', 'gateway', 'cloud', 'console', 'app'] as const;
export type TUnlockSource = (typeof UNLOCK_SOURCES)[number];
export const UNLOCK_STYLES = ['password', 'card', 'face', 'fingerprint', 'bluetooth', 'remote', 'key', 'other'] as const;
export const ZUnlockRecordListInput = ZPageInput.extend({
  roomId: ZId,
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });

/** The quick ranges of the date filter of the records lists (unlock records, the audit log). */
export const QUICK_RANGES = ['today', 'yesterday', 'week'] as const;
