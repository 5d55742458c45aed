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
  /** Ids are PostgreSQL `integer`s. */
  idMax: 2_147_483_647,
  pageMax: 100_000,
  /** The largest amount any face takes, in minor units (100 million in major units). */
  amountMaxMinor: 100_000_000_00,
  guestsPerStayMax: 10,
  remarkMaxLength: 500,
  guestFieldMax: { name: 64, nationality: 64, idNumber: 32, mobile: 20, email: 254 },
  roomFieldMax: { name: 32, remarkName: 64, description: 1000, lockNotice: 200, notice: 500, lockId: 64, bluetoothName: 64, macId: 17, picture: 500 },
  /** A lock account's user name and label. */
  lockAccountMax: 100,
  /** Rooms paired with locks in one request. */
  lockPairsMax: 1000,
  groupNameMaxLength: 32,
  templateNameMaxLength: 32,
  /** Specific-date prices of one room or template. */
  datePricesMax: 366,
  breakfastGuestsMax: 20,
  sortOrderMax: 1_000_000,
  /** Calendar dates outside these years are refused (a typo, not a stay). */
  yearMin: 1900,
  yearMax: 2199,
  /** Longest free text a legacy client or a form may send in any field. */
  textMaxLength: 10_000,
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
  /**
   * The interface language's header code (`en`, `zh-CN`), beside its choice in localStorage: the
   * server reads it to name that language's texts in the page it sends (a hint only, never trusted).
   */
  language: 'language',
} as const;

export const STORAGE_KEYS = {
  language: 'language',
  cardSenderType: 'cardSenderType',
  cardToken: 'card_token',
} as const;
