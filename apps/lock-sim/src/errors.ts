/**
 * TTLock's error codes as its cloud answers them (`errcode` / `errmsg` in a JSON body with HTTP 200),
 * from the published table (euopen.ttlock.com, "document-pages/cloud/errorCode"). Only the codes
 * the simulator can produce are listed.
 */
export const TT = {
  INVALID_PARAMETER: -3,
  CLIENT_ID_NOT_EXIST: 10000,
  INVALID_CLIENT: 10001,
  TOKEN_NOT_EXIST: 10003,
  TOKEN_INVALID: 10004,
  INVALID_ACCOUNT: 10007,
  UNSUPPORTED_GRANT_TYPE: 10010,
  INVALID_REFRESH_TOKEN: 10011,
  PASSWORD_NOT_MD5: 30005,
  RATE_LIMITED: 30006,
  MONTHLY_LIMIT: 30007,
  CROSS_SITE: 30008,
  DATE_OUT_OF_WINDOW: 80000,
  INTERNAL: 90000,
  PERMISSION_DENIED: -2018,
  LOCK_NOT_EXIST: -1003,
  LOCK_FROZEN: -2025,
  NOT_SUPPORTED: -4043,
  STORAGE_FULL: -4056,
  PASSCODE_NOT_EXIST: -2009,
  PASSCODE_PERIOD_DELETED: -1026,
  PASSCODE_NEVER_USED: -3008,
  PASSCODE_TOO_SIMPLE: -2032,
  PASSCODE_LENGTH: -3006,
  PASSCODE_DUPLICATE: -3007,
  PASSCODE_STORAGE_FULL: -3009,
  NO_GATEWAY: -2012,
  GATEWAY_OFFLINE: -3002,
  GATEWAY_BUSY: -3003,
  LOCK_OFFLINE: -3036,
  LOCK_BUSY: -3037,
  GATEWAY_NOT_EXIST: -4037,
  CARD_NOT_EXIST: -1021,
} as const;

const MESSAGES: Record<number, string> = {
  [TT.INVALID_PARAMETER]: 'Invalid Parameter',
  [TT.CLIENT_ID_NOT_EXIST]: 'client_id does not exist',
  [TT.INVALID_CLIENT]: 'invalid client, wrong client_id or client_secret',
  [TT.TOKEN_NOT_EXIST]: 'token does not exist',
  [TT.TOKEN_INVALID]: 'token is invalid or revoked',
  [TT.INVALID_ACCOUNT]: 'invalid account or invalid password',
  [TT.UNSUPPORTED_GRANT_TYPE]: 'unsupported grant_type',
  [TT.INVALID_REFRESH_TOKEN]: 'invalid refresh_token',
  [TT.PASSWORD_NOT_MD5]: 'password must be md5 encrypted',
  [TT.RATE_LIMITED]: 'exceeds the restrictions of API call number',
  [TT.MONTHLY_LIMIT]: 'exceeded the monthly limit for API calls',
  [TT.CROSS_SITE]:
    "Cross-site access to user data is prohibited. Please use domain names with the 'cn' prefix to request for Mainland Chinese users, for other region's users please use domain names with the 'eu' prefix to request API endpoints",
  [TT.DATE_OUT_OF_WINDOW]: 'date must be current time, in 5 minutes',
  [TT.INTERNAL]: 'internal server error',
  [TT.PERMISSION_DENIED]:
    "Permission Denied, many interfaces only allow the lock's top administrator or authorised administrator to request them, some interfaces only require a valid regular key user, please use an access token obtained from a legitimate user's account number and password to request the interface.",
  [TT.LOCK_NOT_EXIST]: 'Lock does not exist',
  [TT.LOCK_FROZEN]: 'Frozen lock. Can not operate on it now',
  [TT.NOT_SUPPORTED]: 'Not supported by this lock',
  [TT.STORAGE_FULL]: 'Storage space is full',
  [TT.PASSCODE_NOT_EXIST]: 'Passcode does not exist',
  [TT.PASSCODE_PERIOD_DELETED]: 'The passcode of this validity period was got before and deleted; please choose another whole hour and get again',
  [TT.PASSCODE_NEVER_USED]: 'A passcode never used on the lock cannot be changed',
  [TT.PASSCODE_TOO_SIMPLE]: 'Passcode is too simple, do not use consecutive or repeated digits',
  [TT.PASSCODE_LENGTH]: 'Invalid passcode length, it must be 4-9 digits',
  [TT.PASSCODE_DUPLICATE]: 'The same passcode already exists, please use another one',
  [TT.PASSCODE_STORAGE_FULL]: 'Custom passcode storage is full, delete unused passcodes and retry',
  [TT.NO_GATEWAY]: 'The lock is not connected to any gateway',
  [TT.GATEWAY_OFFLINE]: 'The gateway is offline, please check and retry',
  [TT.GATEWAY_BUSY]: 'The gateway is busy, please retry later',
  [TT.LOCK_OFFLINE]: 'The lock is offline, please check and retry',
  [TT.LOCK_BUSY]: 'The lock is busy, please retry later',
  [TT.GATEWAY_NOT_EXIST]: 'gateway does not exist',
  [TT.CARD_NOT_EXIST]: 'The IC card does not exist',
};

/** A refusal of the simulated cloud: answered as `{ errcode, errmsg, description }`. */
export class TtlockError extends Error {
  readonly errcode: number;

  constructor(errcode: number, errmsg?: string) {
    super(errmsg ?? MESSAGES[errcode] ?? 'failed');
    this.name = 'TtlockError';
    this.errcode = errcode;
  }
}

export function ttError(errcode: number, errmsg?: string): TtlockError {
  return new TtlockError(errcode, errmsg);
}

export function errorBody(error: TtlockError) {
  return { errcode: error.errcode, errmsg: error.message, description: error.message };
}

export const OK_BODY = { errcode: 0, errmsg: 'none error message', description: 'none error message or means yes' } as const;
