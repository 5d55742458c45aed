import { AIR_PASSWORD_RULES, ceilToZoneHour, floorToZoneHour, HOUR_MS } from '@console/shared';
import {
  LockProviderError,
  type KnownLock,
  type PasscodeOnLock,
  type PasscodeState,
  type RandomPasscodeType,
  type Validity,
  type VendorIssue,
} from '../provider';
import { readAccessCode, readActionAttempt, type SeamAccessCode } from './answers';
import { capabilitiesOf, getDevice } from './devices';
import { accessCodeIssue, actionAttemptFailure } from './errors';
import type { SeamSession } from './session';

/**
 * Passcodes are Seam access codes (`access_codes/*`), one `device_id` each. What differs from TTLock,
 * and what each rests on (docs/seam.md, "Mapping"):
 * - A create answers "accepted" (status `unset`, or `setting` for an ongoing code), not "on the
 *   lock": Seam sets it later (`set`, event `access_code.set_on_device`) or fails
 *   (`errors[]`: `failed_to_set_on_device`, ...). `passcodeState` reads where it stands.
 * - Offline codes (`is_offline_access_code`, on devices with `can_program_offline_access_codes`):
 *   Seam computes the PIN (it cannot be chosen) and they cannot be updated or deleted through the
 *   API (Seam's offline access codes guide): `getRandomPasscode` makes them; a change or a delete of
 *   one is refused here without calling (`not_changeable` a change, `offline_kept` a delete: it works until its end).
 * - The fake lists the codes of every device for a `device_id` (its filter's operator precedence):
 *   every list is filtered by device here (harmless on the real API).
 * - Writes to a code first read it (`access_codes/get`): a ref of another lock is
 *   `credential_not_found` (a delete by `access_code_id` alone would remove it wherever it is),
 *   and an offline code is refused before a call Seam would refuse.
 */

const MINUTE = 60_000;
const floorTo = (d: Date, step: number) => new Date(Math.floor(d.getTime() / step) * step);
const ceilTo = (d: Date, step: number) => new Date(Math.ceil(d.getTime() / step) * step);
/** How far ahead of now a start may be and still be "now" for an ongoing code (no start of its own). */
const ONGOING_START_SLACK_MS = MINUTE;

/**
 * A validity as Seam takes it, to the minute (start back, end forward, as TTLock's custom codes).
 * Seam's codes are `time_bound` (both ends) or `ongoing` (neither: from now, for good); a permanent
 * code that starts later has no Seam form and is refused (`not_supported`) rather than set at once.
 */
function windowOf(s: SeamSession, input: Validity): { starts_at: string; ends_at: string } | null {
  if (input.endAt === null) {
    if (input.startAt.getTime() > s.now() + ONGOING_START_SLACK_MS) {
      throw new LockProviderError('not_supported', 'ongoing', 'Seam has no permanent code that starts later: an ongoing code works at once');
    }
    return null;
  }
  return { starts_at: floorTo(input.startAt, MINUTE).toISOString(), ends_at: ceilTo(input.endAt, MINUTE).toISOString() };
}

/** access_codes/get of a code of this lock; unknown, or of another lock: `credential_not_found`. */
async function ownCode(s: SeamSession, lockId: string, ref: string): Promise<SeamAccessCode> {
  const code = readAccessCode(await s.call('access_codes/get', 'credential', (seam) => seam.accessCodes.get({ access_code_id: ref })));
  if (code.deviceId !== lockId) throw new LockProviderError('credential_not_found', 'device_id', `access code ${ref} is not on device ${lockId}`);
  return code;
}

/**
 * A chosen code (Seam `access_codes/create` with `code`); needs `can_program_online_access_codes`.
 * What the lock can take is the console's row when given (`known`, kept at each import: one call a
 * code instead of two, bench/README §21), else the device read first (`devices/get`).
 */
export async function addCustomPasscode(
  s: SeamSession,
  lockId: string,
  input: { code: string; name: string } & Validity,
  known?: KnownLock,
): Promise<{ ref: string }> {
  const device = known ?? capabilitiesOf(await getDevice(s, lockId));
  if (!device.onlinePasscodes) {
    throw new LockProviderError('not_supported', 'can_program_online_access_codes', 'Seam cannot put a chosen code on this device');
  }
  const window = windowOf(s, input);
  // A time-bound code on a lock with Seam's backup pool (`supports_backup_access_code_pool`): a backup
  // code can stand in for it if Seam fails to set it (pullBackupPasscode). Seam has no pool for ongoing codes.
  const pool = window && device.backupCodePool === true ? { use_backup_access_code_pool: true } : {};
  const body = { device_id: lockId, code: input.code, name: input.name, ...window, ...pool };
  const created = readAccessCode(await s.call('access_codes/create', 'lock', (seam) => seam.accessCodes.create(body)));
  if (!created.accessCodeId) throw new LockProviderError('provider_error', undefined, 'access_codes/create answered without access_code_id');
  return { ref: created.accessCodeId };
}

/**
 * An offline code Seam computes for the lock (`is_offline_access_code`), to whole hours of the
 * hotel's clock as TTLock's generated codes (`max_time_rounding: 1hour`): start back, end forward.
 * `one_time`: `is_one_time_use`, usable for AIR_PASSWORD_RULES.oneTimeUseWithinHours when no end is
 * given; `period` needs an end; `permanent` is refused (`not_supported`): Seam's offline codes are
 * time-bound. Seam may answer before the PIN is computed (`is_waiting_for_code_assignment`): the
 * code is read again until it has one.
 */
export async function getRandomPasscode(
  s: SeamSession,
  lockId: string,
  input: { type: RandomPasscodeType; name: string; timeZone: string } & Validity,
): Promise<{ ref: string; code: string }> {
  const device = await getDevice(s, lockId);
  if (!capabilitiesOf(device).offlinePasscodes) {
    throw new LockProviderError('not_supported', 'can_program_offline_access_codes', 'Seam computes no offline codes for this device');
  }
  if (input.type === 'permanent') throw new LockProviderError('not_supported', 'is_offline_access_code', 'Seam offline codes are time-bound');
  const end = input.endAt ?? (input.type === 'one_time' ? new Date(input.startAt.getTime() + AIR_PASSWORD_RULES.oneTimeUseWithinHours * HOUR_MS) : null);
  if (!end) throw new LockProviderError('invalid_parameter', undefined, 'a period passcode needs an end');
  const body = {
    device_id: lockId,
    name: input.name,
    starts_at: floorToZoneHour(input.startAt, input.timeZone).toISOString(),
    ends_at: ceilToZoneHour(end, input.timeZone).toISOString(),
    is_offline_access_code: true,
    is_one_time_use: input.type === 'one_time',
    max_time_rounding: '1hour',
  };
  const created = readAccessCode(await s.call('access_codes/create', 'lock', (seam) => seam.accessCodes.create(body)));
  if (!created.accessCodeId) throw new LockProviderError('provider_error', undefined, 'access_codes/create answered without access_code_id');
  const { value: code } = await s.poll(
    created,
    (c) => c.code !== '',
    () => ownCode(s, lockId, created.accessCodeId),
  );
  if (!code.code) throw new LockProviderError('provider_error', 'is_waiting_for_code_assignment', `offline access code ${code.accessCodeId} has no PIN yet`);
  return { ref: code.accessCodeId, code: code.code };
}

/**
 * A backup code in place of a time-bound code Seam failed to set (`access_codes/pull_backup_access_code`):
 * one of the codes Seam keeps programmed on the lock for this, with the failed code's window. Asked
 * twice, the same backup. Refused (`not_supported`) for a code made without the pool, an ongoing one,
 * or a lock without a pool; `credential_not_found` for a code of another lock.
 */
export async function pullBackupPasscode(s: SeamSession, lockId: string, ref: string): Promise<{ ref: string; code: string }> {
  const original = await ownCode(s, lockId, ref);
  if (original.type !== 'time_bound')
    throw new LockProviderError('not_supported', 'access_code_not_time_bound', 'Seam has backup codes for time-bound codes only');
  const device = await getDevice(s, lockId);
  if (device.backupCodePool !== true) throw new LockProviderError('not_supported', 'supports_backup_access_code_pool', 'this lock has no backup code pool');
  const answer = (await s.post('access_codes/pull_backup_access_code', 'credential', '/access_codes/pull_backup_access_code', { access_code_id: ref })) as {
    backup_access_code?: unknown;
  };
  const backup = readAccessCode(answer?.backup_access_code);
  if (!backup.accessCodeId || !backup.code) throw new LockProviderError('provider_error', 'backup_access_code', 'pull_backup_access_code answered no code');
  return { ref: backup.accessCodeId, code: backup.code };
}

/**
 * access_codes/update with both ends always sent (`type: time_bound`), as a POST (session.post): an
 * update without `starts_at`/`ends_at` turns a code `ongoing` in the fake. A permanent validity is
 * `type: ongoing`. Offline codes: `not_changeable`. Seam answers an action attempt; the code's own
 * status says when the lock has the new window (`passcodeState`).
 */
export async function changePasscodeValidity(s: SeamSession, lockId: string, ref: string, input: Validity): Promise<void> {
  const code = await ownCode(s, lockId, ref);
  if (code.isOfflineAccessCode) throw new LockProviderError('not_changeable', 'is_offline_access_code', 'Seam offline codes cannot be updated');
  const window = windowOf(s, input);
  const body = window ? { access_code_id: ref, type: 'time_bound', ...window } : { access_code_id: ref, type: 'ongoing' };
  const answer = (await s.post('access_codes/update', 'credential', '/access_codes/update', body)) as { action_attempt?: unknown };
  const attempt = readActionAttempt(answer?.action_attempt);
  if (attempt.status === 'error') throw actionAttemptFailure(attempt);
}

/**
 * access_codes/delete by `access_code_id` (never with `device_id`: the fake answers 500 for an
 * unknown id with a device that has codes). Accepted is not removed: the real API keeps the code
 * `removing` until the lock let it go (`passcodeState`); the fake removes it at once.
 */
export async function deletePasscode(s: SeamSession, lockId: string, ref: string): Promise<void> {
  const code = await ownCode(s, lockId, ref);
  if (code.isOfflineAccessCode) throw new LockProviderError('offline_kept', 'is_offline_access_code', 'Seam offline codes cannot be deleted');
  // The SDK's delete returns nothing (no response key); its request's full answer carries the action attempt.
  const answer = await s.call('access_codes/delete', 'credential', (seam) => seam.accessCodes.delete({ access_code_id: ref }).fetchResponse());
  const attempt = readActionAttempt((answer as { action_attempt?: unknown } | undefined)?.action_attempt);
  if (attempt.status === 'error') throw actionAttemptFailure(attempt);
}

/** The lock's managed codes, its own only (the fake's list is not), backup codes left out (a pool, not issued). */
export async function listPasscodes(s: SeamSession, lockId: string): Promise<PasscodeOnLock[]> {
  const all = await s.all('access_codes/list', 'lock', (seam) => seam.accessCodes.list({ device_id: lockId }));
  return all
    .map(readAccessCode)
    .filter((c) => c.deviceId === lockId && !c.isBackup && c.accessCodeId !== '')
    .map((c) => ({
      ref: c.accessCodeId,
      code: c.code,
      name: c.name,
      origin: c.isOfflineAccessCode ? 'random' : 'custom',
      startAt: c.startsAt ?? c.createdAt ?? new Date(0),
      // An ongoing code has no end, whatever window the record kept (the fake keeps the old one).
      endAt: c.type === 'ongoing' ? null : c.endsAt,
    }));
}

/**
 * Where a code stands (PasscodeState), from access_codes/get:
 * - unknown (404) or of another device: `gone`;
 * - an error that is not transient (errors.ts, SEAM_ACCESS_CODE_ISSUES): `failed`, with it;
 * - status `set`, or an offline code with its PIN: `on_lock`; `removing`: `removing`;
 * - `unset` (a time-bound code before Seam programs it), `setting`, `unknown`: `setting`, any
 *   transient error kept as its `error`.
 * Warnings are kept as they are (e.g. `delay_in_setting_on_device`).
 */
export async function passcodeState(s: SeamSession, lockId: string, ref: string): Promise<PasscodeState> {
  let code: SeamAccessCode;
  try {
    code = await ownCode(s, lockId, ref);
  } catch (error) {
    if (error instanceof LockProviderError && error.code === 'credential_not_found') return { state: 'gone', error: null, warnings: [], vendorStatus: null };
    throw error;
  }
  const errors = code.errors.map((e) => accessCodeIssue(e, 'error'));
  const warnings: VendorIssue[] = code.warnings.map((w) => {
    const { transient: _transient, ...issue } = accessCodeIssue(w, 'warning');
    return issue;
  });
  const failure = errors.find((e) => !e.transient);
  const trouble = failure ?? errors[0];
  const error = trouble ? { code: trouble.code, vendorCode: trouble.vendorCode, vendorMessage: trouble.vendorMessage } : null;
  const vendorStatus = code.status || null;
  if (failure) return { state: 'failed', error, warnings, vendorStatus };
  if (code.status === 'set' || (code.isOfflineAccessCode && code.code !== '' && code.status !== 'removing'))
    return { state: 'on_lock', error, warnings, vendorStatus };
  if (code.status === 'removing') return { state: 'removing', error, warnings, vendorStatus };
  return { state: 'setting', error, warnings, vendorStatus };
}
