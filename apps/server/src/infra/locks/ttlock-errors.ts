import type { TLockErrorCode } from '@console/shared';

/**
 * TTLock's errcodes (the published table, euopen.ttlock.com "document-pages/cloud/errorCode") and
 * what each means to us: one of our codes (LOCK_ERROR_CODES), whose LOCK_ERROR_KIND says whether
 * it is retried, fails at once, or waits for the account or for the call limit. Codes TTLock does
 * not publish are `cloud_error` (retried a few times, with the vendor's code kept for support).
 */
export const TTLOCK_ERRCODES: ReadonlyMap<number, TLockErrorCode> = new Map<number, TLockErrorCode>([
  // Account, rights and common errors
  [1, 'provider_error'], // "failed or means no"
  [10000, 'app_refused'], // client_id does not exist
  [10001, 'app_refused'], // invalid client, wrong client_id or client_secret
  [10003, 'auth_failed'], // token does not exist
  [10004, 'auth_failed'], // token is invalid or revoked
  [10006, 'app_refused'], // the application is not approved yet: only its test accounts may sign in
  [10007, 'auth_failed'], // invalid account or invalid password
  [10010, 'auth_failed'], // unsupported grant_type
  [10011, 'auth_failed'], // invalid refresh_token
  [20002, 'permission_denied'], // not lock admin
  [30005, 'auth_failed'], // password must be md5 encrypted
  [30006, 'rate_limited'], // exceeds the restrictions of API call number
  [30007, 'monthly_limit'], // exceeded the monthly limit for API calls
  [30008, 'wrong_region'], // cross-site access: the account belongs to the other region's host
  [80000, 'clock_skew'], // date must be current time, in 5 minutes
  [80002, 'invalid_parameter'], // invalid json format
  [90000, 'cloud_error'], // internal server error
  [-3, 'invalid_parameter'],
  [-2018, 'permission_denied'],
  // Locks
  [-1003, 'lock_not_found'],
  [-2025, 'lock_frozen'],
  [-4043, 'not_supported'],
  [-4056, 'storage_full'],
  [-4067, 'not_supported'], // NB-IoT device not registered
  // Passcodes
  [-1007, 'no_passcode_data'],
  [-1026, 'period_used'],
  [-2009, 'credential_not_found'],
  [-2032, 'code_too_simple'],
  [-3006, 'code_length'],
  [-3007, 'duplicate_code'],
  [-3008, 'not_changeable'],
  [-3009, 'storage_full'],
  // Gateways and WiFi locks
  [-2012, 'no_gateway'],
  [-3002, 'gateway_offline'],
  [-3003, 'gateway_busy'],
  [-3034, 'wifi_not_configured'],
  [-3035, 'wifi_power_saving'],
  [-3036, 'lock_offline'],
  [-3037, 'lock_busy'],
  [-4037, 'gateway_not_found'],
  // Cards, fingerprints
  [-1021, 'credential_not_found'],
  [-1023, 'credential_not_found'],
  // Remote unlock not allowed to this account's key
  [-3046, 'permission_denied'],
]);

/** Tokens TTLock no longer takes: the adapter gets a new one and asks once more. */
export const TTLOCK_TOKEN_INVALID: ReadonlySet<number> = new Set([10003, 10004]);

/** Our code for a TTLock errcode; one TTLock does not publish is `cloud_error` (the vendor code is kept on the error). */
export function ttlockErrorCode(errcode: number): TLockErrorCode {
  return TTLOCK_ERRCODES.get(errcode) ?? 'cloud_error';
}
