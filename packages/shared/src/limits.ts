/** Business constants and limits of spec §9, and the limits the server enforces. */
export const LIMITS = {
  /** "Password has more than 6 characters." */
  passwordMinLength: 7,
  passwordMaxLength: 64,
  captchaLength: 4,
  captchaTtlSeconds: 120,
  smsCodeLength: 6,
  smsCodeTtlSeconds: 600,
  smsCodeMaxAttempts: 5,
  smsPerNumberPerMinute: 1,
  smsPerNumberPerHour: 5,
  smsPerAddressPerHour: 20,
  searchMaxLength: 64,
  nicknameMaxLength: 32,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  pageSizeOptions: [10, 20, 50, 100],
  /** HTTP timeout for the main API and the gateway. */
  httpTimeoutMs: 40_000,
  readerTimeoutMs: 2_000,
  readerWriteTimeoutMs: 5_000,
  cardReadLockoutMs: 2_000,
  mobileBreakpointPx: 992,
  sidebarWidthPx: 210,
  readerKeyLength: 12,
  readerBlockDataLength: 32,
  minStayHours: 1,
  minPrice: 1,
  customPasswordLength: 6,
} as const;

/** Sign-in attempt limits, checked before any password is hashed. */
export const LOGIN_LIMITS = {
  /** Failures per account in the window, with a graphic code (web console). */
  perAccount: 10,
  /** Failures per client address in the window, with a graphic code. */
  perAddress: 50,
  /** Stricter limits for legacy logins sent without a graphic code. */
  perAccountWithoutCode: 5,
  perAddressWithoutCode: 20,
  /** After this many failures of an account, a legacy login must carry a graphic code. */
  codeRequiredAfterFailures: 3,
  windowSeconds: 15 * 60,
} as const;

export const COOKIES = {
  sidebar: 'sidebarStatus',
  userInfo: 'smart_lock_userinfo',
  session: 'sl_session',
} as const;

export const STORAGE_KEYS = {
  language: 'language',
  cardSenderType: 'cardSenderType',
  cardToken: 'card_token',
} as const;
