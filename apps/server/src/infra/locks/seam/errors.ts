import type { TLockErrorCode } from '@console/shared';
import { LockProviderError, type VendorIssue } from '../provider';
import type { SeamActionAttempt, SeamIssue } from './answers';

/**
 * Seam's failures as our codes (LOCK_ERROR_CODES of packages/shared; LOCK_ERROR_KIND says what the
 * work that met one does). Four sources, each its own table below:
 * 1. the HTTP answer of a call: its status, and the JSON `error.type` Seam puts in the body;
 * 2. an action attempt that ended in `error` (`error.type`): the unlock;
 * 3. an access code's `errors[]` / `warnings[]` (`error_code` / `warning_code`): what
 *    `passcodeState` reads once the create was accepted;
 * 4. a device's `errors[]`: read before an unlock (seam/devices.ts).
 * The vendor's code and message are kept on every LockProviderError and VendorIssue.
 *
 * What each rests on: Seam's published error types (`@seamapi/types` 1.724.0: models/devices/device.ts
 * for device errors, access-codes/managed-access-code.ts for code errors and warnings,
 * action-attempts/common.ts for `uncategorized_error` and `action_attempt_expired`); what the fake
 * answers (`duplicate_access_code` 409, `device_not_found` 404, `access_code_not_found` or
 * `not_found` 404, `invalid_input` 400, 401 without a body type, 503 with an empty body for an
 * outage); Seam's rate-limit guide for the 429 (its body is not documented: the status alone is
 * read, and `Retry-After` when sent). Details and sources: docs/seam.md, "Errors".
 */

/** What a failed HTTP call left, kept from axios' error by the adapter's interceptor (session.ts). */
export class SeamHttpFailure extends Error {
  constructor(
    /** The HTTP status; null when no answer came. */
    readonly status: number | null,
    /** The JSON body's `error.type`; null when the body carries no such error. */
    readonly type: string | null,
    readonly detail: string,
    /** The `Retry-After` header, as sent. */
    readonly retryAfter: string | null,
    /** The `seam-request-id` header (for Seam's support). */
    readonly requestId: string,
    /** The network failure's code (ECONNREFUSED, ETIMEDOUT, ...) when no answer came. */
    readonly networkCode: string,
  ) {
    super(`seam: ${status ?? networkCode} ${type ?? ''} ${detail}`.trim());
    this.name = 'SeamHttpFailure';
  }
}

type Headers = Record<string, unknown> & { get?: (name: string) => unknown };
const header = (headers: Headers | undefined, name: string): string | null => {
  const value = typeof headers?.get === 'function' ? headers.get(name) : headers?.[name];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
};

/**
 * axios' error (the SDK's HTTP client) as a SeamHttpFailure, before anything drops the status or
 * the headers: the SDK's own SeamHttpApiError keeps neither Retry-After nor whether the body was
 * JSON. Anything that is not an axios error is given back as it is.
 */
export function httpFailureOf(error: unknown): unknown {
  const e = error as { isAxiosError?: boolean; code?: string; message?: string; response?: { status?: number; headers?: Headers; data?: unknown } };
  if (e === null || typeof e !== 'object' || e.isAxiosError !== true) return error;
  const response = e.response;
  if (!response || typeof response.status !== 'number') return new SeamHttpFailure(null, null, e.message ?? '', null, '', e.code ?? 'ERR_NETWORK');
  const body = response.data !== null && typeof response.data === 'object' ? (response.data as { error?: { type?: unknown; message?: unknown } }) : {};
  const type = typeof body.error?.type === 'string' ? body.error.type : null;
  const message = typeof body.error?.message === 'string' ? body.error.message : '';
  return new SeamHttpFailure(response.status, type, message, header(response.headers, 'retry-after'), header(response.headers, 'seam-request-id') ?? '', '');
}

/** What a call was about, for Seam's generic `not_found` (the fake's access_codes/get answers it for an unknown code). */
export type SeamSubject = 'lock' | 'credential';

/** Seam's API error types (the body's `error.type`) that are ours. Any other is `provider_error`, its type kept. */
export const SEAM_API_ERRORS: ReadonlyMap<string, TLockErrorCode> = new Map<string, TLockErrorCode>([
  ['duplicate_access_code', 'duplicate_code'], // 409 on access_codes/create: the same code on that device
  ['device_not_found', 'lock_not_found'],
  ['access_code_not_found', 'credential_not_found'],
  // Card systems (acs.ts): an encoded card's user or credential gone is the card gone.
  ['acs_user_not_found', 'credential_not_found'],
  ['acs_credential_not_found', 'credential_not_found'],
  ['acs_entrance_not_found', 'lock_not_found'],
  ['acs_system_not_found', 'lock_not_found'],
  ['acs_encoder_not_found', 'invalid_parameter'],
  ['invalid_input', 'invalid_parameter'], // 400, with validation_errors per field
  ['unauthorized', 'auth_failed'],
  // A token Seam did not take as a workspace API key, read as a user's session that names no workspace
  // (the fake answers it to an unknown key on workspaces/get, which takes both kinds): not a usable key.
  ['missing_workspace_id', 'auth_failed'],
  ['device_offline', 'lock_offline'],
  ['device_disconnected', 'lock_offline'],
  ['hub_disconnected', 'lock_offline'],
  ['account_disconnected', 'account_disconnected'],
]);

/** A Retry-After (seconds, or an HTTP date) as an instant; none or unreadable: Seam's window of one minute. */
export function retryAtOf(retryAfter: string | null, now: number): Date {
  const value = retryAfter?.trim() ?? '';
  if (/^\d{1,6}$/.test(value)) return new Date(now + Number(value) * 1000);
  const date = value ? Date.parse(value) : Number.NaN;
  return new Date(Number.isNaN(date) ? now + 60_000 : Math.max(now, date));
}

/**
 * Our error for what a call met. Order matters: no answer is `network`; 401 `auth_failed`; 403
 * `permission_denied`; 429 `rate_limited` with its retryAt, whatever its body; any 5xx, or an answer
 * whose body carries no JSON `error.type` (the fake's outage: 503, empty), `cloud_error`; then the
 * body's type by SEAM_API_ERRORS.
 */
export function seamFailure(error: unknown, subject: SeamSubject, now: number): LockProviderError {
  if (error instanceof LockProviderError) return error;
  if (!(error instanceof SeamHttpFailure)) {
    return new LockProviderError('provider_error', undefined, error instanceof Error ? error.message : String(error));
  }
  const message = error.requestId ? `${error.detail} (seam-request-id ${error.requestId})`.trim() : error.detail;
  if (error.status === null) return new LockProviderError('network', error.networkCode, error.detail);
  if (error.status === 401) return new LockProviderError('auth_failed', error.type ?? 401, message);
  if (error.status === 403) return new LockProviderError('permission_denied', error.type ?? 403, message);
  if (error.status === 429) return new LockProviderError('rate_limited', error.type ?? 429, message, { retryAt: retryAtOf(error.retryAfter, now) });
  if (error.status >= 500 || error.type === null) return new LockProviderError('cloud_error', error.type ?? error.status, message);
  if (error.type === 'not_found') return new LockProviderError(subject === 'lock' ? 'lock_not_found' : 'credential_not_found', error.type, message);
  return new LockProviderError(SEAM_API_ERRORS.get(error.type) ?? 'provider_error', error.type, message);
}

/**
 * An action attempt's `error.type` (the unlock). Seam publishes `uncategorized_error` and
 * `action_attempt_expired` for every action; a device that is not reachable is the device error
 * types. Any other: `provider_error`.
 */
export const SEAM_ACTION_ATTEMPT_ERRORS: ReadonlyMap<string, TLockErrorCode> = new Map<string, TLockErrorCode>([
  ['action_attempt_expired', 'lock_busy'], // the device did not answer in time: tried again
  ['device_offline', 'lock_offline'],
  ['device_disconnected', 'lock_offline'],
  ['hub_disconnected', 'lock_offline'],
  ['account_disconnected', 'account_disconnected'],
  ['device_not_found', 'lock_not_found'],
  // A card system's encoder (acs/encoders/encode_credential): the desk's card, not the door.
  ['no_credential_on_encoder', 'no_card_on_encoder'],
  ['incompatible_card_format', 'card_not_encodable'],
  ['credential_cannot_be_reissued', 'card_not_encodable'],
  ['encoding_interrupted', 'encoding_interrupted'],
  ['bridge_disconnected', 'card_system_offline'],
]);

export function actionAttemptFailure(attempt: SeamActionAttempt): LockProviderError {
  const error = attempt.error ?? { code: 'uncategorized_error', message: '' };
  return new LockProviderError(SEAM_ACTION_ATTEMPT_ERRORS.get(error.code) ?? 'provider_error', error.code, error.message);
}

/**
 * An access code's errors and warnings (`error_code` / `warning_code`). `transient`: Seam is still
 * trying (a delay, a lock briefly offline): the code stays `setting` or `removing`, the issue kept;
 * otherwise it `failed`. An error not listed fails the code as `failed_on_lock`; a warning not
 * listed is kept as a warning (`provider_error`) and changes nothing.
 */
export const SEAM_ACCESS_CODE_ISSUES: ReadonlyMap<string, { code: TLockErrorCode; transient: boolean }> = new Map([
  ['failed_to_set_on_device', { code: 'failed_on_lock', transient: false }],
  ['failed_to_remove_from_device', { code: 'failed_on_lock', transient: false }],
  ['smartthings_failed_to_set_access_code', { code: 'failed_on_lock', transient: false }],
  ['smartthings_failed_to_set_after_multiple_retries', { code: 'failed_on_lock', transient: false }],
  ['code_modified_external_to_seam', { code: 'failed_on_lock', transient: false }],
  ['duplicate_code_on_device', { code: 'duplicate_code', transient: false }],
  ['duplicate_code_attempt_prevented', { code: 'duplicate_code', transient: false }],
  ['schlage_detected_duplicate', { code: 'duplicate_code', transient: false }],
  ['no_space_for_access_code_on_device', { code: 'storage_full', transient: false }],
  ['hubitat_no_free_positions_available', { code: 'storage_full', transient: false }],
  ['smartthings_no_free_slots_available', { code: 'storage_full', transient: false }],
  ['august_lock_invalid_code_length', { code: 'code_length', transient: false }],
  ['august_lock_missing_keypad', { code: 'not_supported', transient: false }],
  ['kwikset_insufficient_permissions', { code: 'permission_denied', transient: false }],
  ['delay_in_setting_on_device', { code: 'lock_busy', transient: true }],
  ['delay_in_removing_from_device', { code: 'lock_busy', transient: true }],
  ['august_device_programming_delay', { code: 'lock_busy', transient: true }],
  ['hubitat_device_programming_delay', { code: 'lock_busy', transient: true }],
  ['kwikset_unable_to_confirm_code', { code: 'lock_busy', transient: true }],
  ['kwikset_unable_to_confirm_deletion', { code: 'lock_busy', transient: true }],
  ['august_lock_temporarily_offline', { code: 'lock_offline', transient: true }],
  // A code's errors also carry its device's and account's (Seam: device_and_connected_account_error_options).
  ['device_offline', { code: 'lock_offline', transient: true }],
  ['device_disconnected', { code: 'lock_offline', transient: true }],
  ['hub_disconnected', { code: 'lock_offline', transient: true }],
  ['account_disconnected', { code: 'account_disconnected', transient: true }],
] as const);

export function accessCodeIssue(issue: SeamIssue, kind: 'error' | 'warning'): VendorIssue & { transient: boolean } {
  const known = SEAM_ACCESS_CODE_ISSUES.get(issue.code);
  const fallback = kind === 'error' ? { code: 'failed_on_lock' as const, transient: false } : { code: 'provider_error' as const, transient: true };
  const { code, transient } = known ?? fallback;
  return { code, vendorCode: issue.code, vendorMessage: issue.message, transient: kind === 'warning' ? true : transient };
}
