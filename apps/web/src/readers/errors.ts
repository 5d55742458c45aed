/**
 * Every way a reader operation fails, as one error type carrying the i18n key of its text
 * (locale group `readers`) and, for a failure the device reported, its code and a hint (spec §8):
 * - no answer at all (nothing listens, the connection is refused, the call times out): `noResponse`,
 *   "open the reader software";
 * - the service could not run the call (type 1 `code` 0): `readerMessage`, the service's message;
 * - the device failed (a non-zero `retval` / status): the step's text plus the code, with the hint
 *   to check the card (card steps) or the connection (opening the reader);
 * - the caller's input was refused before anything was sent (spec §5): `keyLength`, `dataLength`,
 *   `blockRequired`, `blockInvalid`, `keyRequired`, `deviceRequired`.
 */

export const READER_ERROR_KINDS = [
  'noResponse',
  'startFailed',
  'openFailed',
  'deviceNotFound',
  'deviceNotConnected',
  'deviceRequired',
  'noCard',
  'uidFailed',
  'authFailed',
  'readFailed',
  'writeFailed',
  'writeVerifyFailed',
  'cardChanged',
  'keyRequired',
  'keyLength',
  'dataLength',
  'blockRequired',
  'blockInvalid',
  'readerMessage',
  'fingerNone',
  'fingerUnavailable',
  'fingerFailed',
  'dispenserEmpty',
  'dispenserBusy',
  'dispenserUnavailable',
  'dispenserFailed',
  'operationFailed',
] as const;
export type ReaderErrorKind = (typeof READER_ERROR_KINDS)[number];

/** Which part of the work failed. */
export type ReaderStep = 'open' | 'request' | 'read' | 'write' | 'verify' | 'beep' | 'finger' | 'dispenser' | 'close' | 'validate';
export type ReaderHint = 'checkCard' | 'checkConnection';

export interface ReaderErrorDetails {
  step?: ReaderStep;
  /** The device's own error code (a non-zero retval or status). */
  code?: number;
  hint?: ReaderHint;
  /** Values of the text's placeholders. */
  params?: Record<string, string | number>;
  /** What the service said, for logs. */
  detail?: string;
  cause?: unknown;
}

export class ReaderError extends Error {
  readonly kind: ReaderErrorKind;
  readonly step?: ReaderStep;
  readonly code?: number;
  readonly hint?: ReaderHint;
  readonly params: Record<string, string | number>;
  readonly detail?: string;

  constructor(kind: ReaderErrorKind, details: ReaderErrorDetails = {}) {
    super(`${kind}${details.code !== undefined ? ` (code ${details.code})` : ''}${details.detail ? `: ${details.detail}` : ''}`, { cause: details.cause });
    this.name = 'ReaderError';
    this.kind = kind;
    this.step = details.step;
    this.code = details.code;
    this.hint = details.hint;
    this.params = details.params ?? {};
    this.detail = details.detail;
  }

  /** The text's key in the locale files. */
  get i18nKey(): `readers.${ReaderErrorKind}` {
    return `readers.${this.kind}`;
  }
}

export const isReaderError = (error: unknown, kind?: ReaderErrorKind): error is ReaderError =>
  error instanceof ReaderError && (kind === undefined || error.kind === kind);

/** The text of a step that failed with no more specific reason. */
export const STEP_FAILURE: Record<ReaderStep, ReaderErrorKind> = {
  open: 'openFailed',
  request: 'uidFailed',
  read: 'readFailed',
  write: 'writeFailed',
  verify: 'writeVerifyFailed',
  beep: 'operationFailed',
  finger: 'fingerFailed',
  dispenser: 'dispenserFailed',
  close: 'operationFailed',
  validate: 'operationFailed',
};

/** The hint shown with a device's code: the card on card steps, the connection otherwise (spec §8). */
export function hintFor(step: ReaderStep, kind: ReaderErrorKind): ReaderHint | undefined {
  if (kind === 'deviceNotConnected' || kind === 'deviceNotFound') return 'checkConnection';
  if (step === 'request' || step === 'read' || step === 'write' || step === 'verify') return 'checkCard';
  if (step === 'open') return 'checkConnection';
  return undefined;
}

/**
 * The device's failure `code` at `step`, as a ReaderError: `kind` when the code names a known
 * reason, else the step's own failure text; always with the code and the step's hint.
 */
export function deviceFailure(step: ReaderStep, code: number, kind: ReaderErrorKind | undefined, detail?: string): ReaderError {
  const k = kind ?? STEP_FAILURE[step];
  return new ReaderError(k, { step, code, hint: hintFor(step, k), detail });
}

/** No answer at all: nothing listens, the connection was refused, or the call timed out. */
export function noResponse(step: ReaderStep, cause?: unknown): ReaderError {
  return new ReaderError('noResponse', { step, cause, detail: cause instanceof Error ? cause.message : undefined });
}

/** The service could not run the call and said why (type 1 `code` 0). */
export function readerMessage(step: ReaderStep, message: string | undefined): ReaderError {
  if (!message) return new ReaderError(STEP_FAILURE[step], { step });
  return new ReaderError('readerMessage', { step, params: { message }, detail: message });
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * The text to show for a reader failure (and its hint), with the console's `t`: "{{text}} (code
 * {{code}})" when the device gave a code. Anything that is not a ReaderError is "operation failed".
 */
export function readerErrorText(error: unknown, t: Translate): { text: string; hint?: string } {
  if (!(error instanceof ReaderError)) return { text: t('readers.operationFailed') };
  const base = t(error.i18nKey, error.params);
  const text = error.code !== undefined ? t('readers.withCode', { text: base, code: error.code }) : base;
  const hint = error.hint === 'checkCard' ? t('readers.hintCheckCard') : error.hint === 'checkConnection' ? t('readers.hintCheckConnection') : undefined;
  return hint ? { text, hint } : { text };
}
