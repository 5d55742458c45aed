/**
 * The one catalogue of application errors. Every failure a user can see has a code here;
 * the server throws `AppError(code)`, and exactly one mapping turns it into a tRPC error
 * and one into a legacy `errno`. Messages live in `locales/` under `errors.<CODE>`.
 */
export const APP_ERRORS = {
  VALIDATION: { errno: 100001, trpc: 'BAD_REQUEST' },
  BAD_ENVELOPE: { errno: 100002, trpc: 'BAD_REQUEST' },
  UNAUTHENTICATED: { errno: 100003, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { errno: 100004, trpc: 'FORBIDDEN' },
  NOT_FOUND: { errno: 100005, trpc: 'NOT_FOUND' },
  CONFLICT: { errno: 100006, trpc: 'CONFLICT' },
  TOO_MANY_ATTEMPTS: { errno: 100007, trpc: 'TOO_MANY_REQUESTS' },
  CAPTCHA_INVALID: { errno: 100008, trpc: 'BAD_REQUEST' },
  CAPTCHA_REQUIRED: { errno: 100009, trpc: 'BAD_REQUEST' },
  INVALID_CREDENTIALS: { errno: 100010, trpc: 'BAD_REQUEST' },
  SMS_CODE_INVALID: { errno: 100011, trpc: 'BAD_REQUEST' },
  OLD_PASSWORD_WRONG: { errno: 100012, trpc: 'BAD_REQUEST' },
  UNKNOWN_ACTION: { errno: 100014, trpc: 'NOT_FOUND' },
  ORIGIN_REJECTED: { errno: 100015, trpc: 'FORBIDDEN' },
  PAYLOAD_TOO_LARGE: { errno: 100016, trpc: 'PAYLOAD_TOO_LARGE' },
  NO_HOTEL: { errno: 100017, trpc: 'FORBIDDEN' },
  /** The action has consequences the user must confirm first; `details` says which. */
  CONFIRMATION_REQUIRED: { errno: 100018, trpc: 'PRECONDITION_FAILED' },
  /** A lock or its cloud refused or could not do what was asked (open failed, ...); the message says why. */
  LOCK_FAILED: { errno: 100019, trpc: 'PRECONDITION_FAILED' },
  /**
   * The lock, its gateway or the lock cloud did not do what was asked and the server can only pass
   * that on (the guest's "open the door now": docs/key-page.md); the message and `details.reason` say why.
   */
  LOCK_UNREACHABLE: { errno: 100022, trpc: 'BAD_GATEWAY' },
  /** A request that could not be read at all (a body or an input that is not JSON). */
  BAD_REQUEST: { errno: 100020, trpc: 'BAD_REQUEST' },
  /** A known address called with a method it does not take (a query sent as POST, a mutation as GET). */
  METHOD_NOT_ALLOWED: { errno: 100021, trpc: 'METHOD_NOT_SUPPORTED' },
  /** A body of a type the address does not take (the JSON API: `application/json` in UTF-8 only; issue 39 §2): HTTP 415. */
  UNSUPPORTED_MEDIA_TYPE: { errno: 100023, trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  /** Busy (the database's retries ran out) or a service not configured: HTTP 503, a client may try again later. */
  SERVICE_UNAVAILABLE: { errno: 100503, trpc: 'SERVICE_UNAVAILABLE' },
  INTERNAL: { errno: 100500, trpc: 'INTERNAL_SERVER_ERROR' },
  /** The same request is already being processed (a double click): rejected silently. */
  DUPLICATE_REQUEST: { errno: 9000003, trpc: 'CONFLICT' },
  /** The signed-in account has been frozen: the client clears its user info. */
  ACCOUNT_FROZEN: { errno: 9000005, trpc: 'FORBIDDEN' },
  /** A newer request of the same kind replaced this one: rejected silently. */
  SUPERSEDED: { errno: 9000020, trpc: 'CONFLICT' },
} as const satisfies Record<string, { errno: number; trpc: string }>;

export type TAppErrorCode = keyof typeof APP_ERRORS;
export const APP_ERROR_CODES = Object.keys(APP_ERRORS) as TAppErrorCode[];

export const ERRNO_OK = 0;
export const ERRNO_LOGIN_EXPIRED = APP_ERRORS.UNAUTHENTICATED.errno;
export const ERRNO_ACCOUNT_FROZEN = APP_ERRORS.ACCOUNT_FROZEN.errno;
/** errno values the console rejects without showing any message (spec §8). */
export const SILENT_ERRNOS: readonly number[] = [APP_ERRORS.DUPLICATE_REQUEST.errno, APP_ERRORS.SUPERSEDED.errno];

export function errorMessageKey(code: TAppErrorCode): string {
  return `errors.${code}`;
}

/** The shape of `error.data.app` in every tRPC error this server sends. */
export interface TAppErrorData {
  code: TAppErrorCode;
  errno: number;
  message: string;
  /** Why, as a stable key the screen may act on (the message's key, e.g. `cards.errors.cardInUse`). */
  reason?: string;
  /** Field name -> translated message, for validation errors. */
  fields?: Record<string, string>;
  /** Seconds until a rate-limited action may be tried again. */
  retryAfterSeconds?: number;
  /** Structured facts for the screen (for example the warnings a check-in asks to confirm). */
  details?: Record<string, unknown>;
}
