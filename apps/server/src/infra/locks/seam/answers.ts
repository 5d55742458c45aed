/**
 * Seam's objects as this adapter reads them: only the fields it uses, each checked where the answer
 * comes in. The SDK's own types come from `@seamapi/types`, which says Node 22 and is not installed
 * (docs/seam.md, "Packages"), so every SDK answer is `unknown` here until read by one of these.
 *
 * Field names and meanings: Seam's published schemas (`@seamapi/types` 1.724.0,
 * src/lib/seam/connect/models: devices/device.ts, access-codes/managed-access-code.ts,
 * events/devices.ts, action-attempts/*.ts), and what `@seamapi/fake-seam-connect` 1.86.0 answers
 * (docs/seam.md, "What the fake answers").
 */

import { toAcceptedText } from '@console/shared';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
/** Seam's text as the console keeps any (toAcceptedText): control characters but line breaks and tabs out (a NUL: PostgreSQL refuses it), a lone surrogate U+FFFD. */
const text = (v: unknown): string => (typeof v === 'string' ? toAcceptedText(v) : '');
const flag = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Seam's battery levels are fractions, 0 to 1 inclusive. */
const fraction = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? v : undefined);

/** An ISO instant, or null when absent or not one. */
export function instant(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

/** One entry of a device's or an access code's `errors[]` / `warnings[]`, or an action attempt's `error`. */
export interface SeamIssue {
  /** `error_code`, `warning_code`, or (an action attempt's error) `type`. */
  code: string;
  message: string;
}

function issues(v: unknown, key: 'error_code' | 'warning_code'): SeamIssue[] {
  return list(v)
    .map((i) => ({ code: text(obj(i)[key]), message: text(obj(i).message) }))
    .filter((i) => i.code !== '');
}

export interface SeamDevice {
  deviceId: string;
  deviceType: string;
  /** `properties.name`: the device's name at its provider (deprecated by Seam for display_name, still sent). */
  name: string;
  /** `display_name`: the nickname set through Seam, else the name at the provider. */
  displayName: string;
  /** `properties.online`. */
  online: boolean | undefined;
  /** `properties.battery_level`, else `properties.battery.level` (the fake sends only the latter): 0 to 1. */
  batteryLevel: number | undefined;
  canRemotelyUnlock: boolean | undefined;
  canProgramOnlineAccessCodes: boolean | undefined;
  canProgramOfflineAccessCodes: boolean | undefined;
  /** `properties.model.has_built_in_keypad`. */
  hasBuiltInKeypad: boolean | undefined;
  /** `properties.model.can_connect_accessory_keypad`. */
  canConnectAccessoryKeypad: boolean | undefined;
  /** `properties.accessory_keypad.is_connected`. */
  accessoryKeypadConnected: boolean | undefined;
  /** `properties.door_open`, on the locks that report it. */
  doorOpen: boolean | undefined;
  /** `properties.supports_backup_access_code_pool`: Seam keeps backup codes programmed on the lock. */
  backupCodePool: boolean | undefined;
  errors: SeamIssue[];
  warnings: SeamIssue[];
}

export function readDevice(v: unknown): SeamDevice {
  const d = obj(v);
  const p = obj(d.properties);
  const model = obj(p.model);
  return {
    deviceId: text(d.device_id),
    deviceType: text(d.device_type),
    name: text(p.name),
    displayName: text(d.display_name),
    online: flag(p.online),
    batteryLevel: fraction(p.battery_level) ?? fraction(obj(p.battery).level),
    canRemotelyUnlock: flag(d.can_remotely_unlock),
    canProgramOnlineAccessCodes: flag(d.can_program_online_access_codes),
    canProgramOfflineAccessCodes: flag(d.can_program_offline_access_codes),
    hasBuiltInKeypad: flag(model.has_built_in_keypad),
    canConnectAccessoryKeypad: flag(model.can_connect_accessory_keypad),
    accessoryKeypadConnected: flag(obj(p.accessory_keypad).is_connected),
    doorOpen: flag(p.door_open),
    backupCodePool: flag(p.supports_backup_access_code_pool),
    errors: issues(d.errors, 'error_code'),
    warnings: issues(d.warnings, 'warning_code'),
  };
}

/** Seam's access code `status`: `setting`, `set`, `unset`, `removing`, `unknown`. */
export interface SeamAccessCode {
  accessCodeId: string;
  deviceId: string;
  /** Empty while Seam is still choosing it (`is_waiting_for_code_assignment`). */
  code: string;
  name: string;
  status: string;
  /** `ongoing` or `time_bound`. */
  type: string;
  startsAt: Date | null;
  endsAt: Date | null;
  createdAt: Date | null;
  isOfflineAccessCode: boolean;
  isBackup: boolean;
  errors: SeamIssue[];
  warnings: SeamIssue[];
}

export function readAccessCode(v: unknown): SeamAccessCode {
  const c = obj(v);
  return {
    accessCodeId: text(c.access_code_id),
    deviceId: text(c.device_id),
    code: text(c.code),
    name: text(c.name),
    status: text(c.status),
    type: text(c.type),
    startsAt: instant(c.starts_at),
    endsAt: instant(c.ends_at),
    createdAt: instant(c.created_at),
    isOfflineAccessCode: c.is_offline_access_code === true,
    isBackup: c.is_backup === true,
    errors: issues(c.errors, 'error_code'),
    warnings: issues(c.warnings, 'warning_code'),
  };
}

export interface SeamEvent {
  eventId: string;
  eventType: string;
  deviceId: string;
  /** On `lock.unlocked` / `lock.access_denied` with method `keycode`, when the device reports it. */
  accessCodeId: string;
  /** `lock.unlocked`'s `method`: `keycode`, `manual`, `automatic`, `unknown`, `seamapi`. */
  method: string;
  occurredAt: Date | null;
  createdAt: Date | null;
}

export function readEvent(v: unknown): SeamEvent {
  const e = obj(v);
  return {
    eventId: text(e.event_id),
    eventType: text(e.event_type),
    deviceId: text(e.device_id),
    accessCodeId: text(e.access_code_id),
    method: text(e.method),
    occurredAt: instant(e.occurred_at),
    createdAt: instant(e.created_at),
  };
}

/** An action attempt: `pending`, then `success` or `error` (with `error.type`, `error.message`). */
export interface SeamActionAttempt {
  actionAttemptId: string;
  actionType: string;
  status: string;
  error: SeamIssue | null;
  /** What a successful attempt answers (ENCODE_CREDENTIAL: the credential as encoded), unread. */
  result: unknown;
}

export function readActionAttempt(v: unknown): SeamActionAttempt {
  const a = obj(v);
  const error = obj(a.error);
  return {
    actionAttemptId: text(a.action_attempt_id),
    actionType: text(a.action_type),
    status: text(a.status),
    error: a.status === 'error' ? { code: text(error.type) || 'uncategorized_error', message: text(error.message) } : null,
    result: a.result,
  };
}

/** A card system (`acs_system`): its id and kind (`system_type`, e.g. `visionline_system`). */
export function readAcsSystem(v: unknown): { acsSystemId: string; systemType: string } {
  const a = obj(v);
  return { acsSystemId: text(a.acs_system_id), systemType: text(a.system_type) || text(a.external_type) };
}

/** A door of a card system (`acs_entrance`). */
export function readAcsEntrance(v: unknown): { acsEntranceId: string; displayName: string } {
  const a = obj(v);
  return { acsEntranceId: text(a.acs_entrance_id), displayName: text(a.display_name) };
}

/** A card system's credential (`acs_credential`): the number the system gave the card once encoded. */
export function readAcsCredential(v: unknown): { acsCredentialId: string; cardNumber: string; isIssued: boolean } {
  const a = obj(v);
  return { acsCredentialId: text(a.acs_credential_id), cardNumber: text(a.card_number), isIssued: a.is_issued === true };
}
