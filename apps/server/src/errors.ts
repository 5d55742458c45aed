import { ZodError } from 'zod';
import {
  APP_ERRORS,
  describeZodError,
  errorMessageKey,
  findUnacceptedText,
  fromMinor,
  type TAppErrorCode,
  type TAppErrorData,
  type TLanguageHeader,
} from '@console/shared';
import { databaseConstraint, EXCLUSION_VIOLATION, UNIQUE_VIOLATION } from './db/errors';
import { Prisma } from './generated/prisma/client';
import type { Translator } from './infra/i18n';

export interface AppErrorOptions {
  /** An i18n key to use instead of `errors.<CODE>` (for example a `validation.*` key). */
  messageKey?: string;
  /** Interpolated into the message; a `{ t: key }` value is itself translated first (a reason code). */
  params?: Record<string, unknown>;
  /** Field -> i18n key, for validation errors. */
  fields?: Record<string, string>;
  retryAfterSeconds?: number;
  /** Structured facts sent to the client with the message. */
  details?: Record<string, unknown>;
  /**
   * Amounts of money among the facts, in the minor unit of `currency` (tRPC sends them as they
   * are, like every amount it sends; the legacy protocol in major units, like every amount it sends).
   */
  money?: { currency: string; amounts: Record<string, number> };
  cause?: unknown;
}

/** The one error type of the domain; transports map it (tRPC: trpc/init.ts, legacy: legacy/manage/envelope.ts). */
export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly options: AppErrorOptions;

  constructor(code: TAppErrorCode, options: AppErrorOptions = {}) {
    super(options.messageKey ?? errorMessageKey(code), { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.options = options;
  }

  get errno(): number {
    return APP_ERRORS[this.code].errno;
  }

  /**
   * Refuses a request that holds text the product does not accept anywhere (control characters,
   * unpaired surrogates: decision 025), each place a field error; every transport calls it before
   * its schema.
   */
  static assertAcceptedText(value: unknown): void {
    const found = findUnacceptedText(value);
    if (found.length === 0) return;
    throw new AppError('VALIDATION', { messageKey: found[0]!.reason, fields: Object.fromEntries(found.map((f) => [f.path, f.reason])) });
  }

  static validation(error: ZodError): AppError {
    const { message, fields } = describeZodError(error);
    return new AppError('VALIDATION', { messageKey: message, fields });
  }
}

/** A Standard Schema failure (what tRPC throws for a bad input): an object with `issues`. */
function hasIssues(error: unknown): error is { issues: { message: string; path?: PropertyKey[] }[] } {
  return typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues);
}

/**
 * What a unique or exclusion constraint the database enforced means to the user, by its name (the
 * partial indexes and exclusion constraints of the migrations); any other one is "already exists".
 * A service may still catch its own to name a field or a value.
 */
const CONSTRAINT_MESSAGES: Record<string, { messageKey: string; field?: string }> = {
  LockPassword_live_code_key: { messageKey: 'credentials.errors.duplicate_code', field: 'code' },
  LockManager_member_key: { messageKey: 'lockManagers.already' },
  LockManager_person_key: { messageKey: 'lockManagers.already' },
  CardDispenser_hotelId_deviceId_key: { messageKey: 'deskReaders.errors.dispenserExists', field: 'deviceId' },
  Stay_no_overlap: { messageKey: 'stay.errors.roomOccupied' },
};

/** A unique (23505) or exclusion (23P01) violation, wherever it was raised, as a translated conflict. */
function constraintConflict(error: unknown): AppError | undefined {
  const found = databaseConstraint(error);
  if (found?.code !== UNIQUE_VIOLATION && found?.code !== EXCLUSION_VIOLATION) return undefined;
  const known = found.constraint ? CONSTRAINT_MESSAGES[found.constraint] : undefined;
  const messageKey = known?.messageKey ?? (found.code === UNIQUE_VIOLATION ? 'errors.ALREADY_EXISTS' : errorMessageKey('CONFLICT'));
  return new AppError('CONFLICT', { messageKey, fields: known?.field ? { [known.field]: messageKey } : undefined, cause: error });
}

/** Turns anything thrown into an AppError; unexpected errors become INTERNAL (and are logged by the caller). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return AppError.validation(error);
  if (hasIssues(error)) return AppError.validation(new ZodError(error.issues as ZodError['issues']));
  const conflict = constraintConflict(error);
  if (conflict) return conflict;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === 'P2025') return new AppError('NOT_FOUND', { cause: error });
    if (error.code === 'P2002') return new AppError('CONFLICT', { messageKey: 'errors.ALREADY_EXISTS', cause: error });
    // A row referred to was deleted by a write that ran at the same moment.
    if (error.code === 'P2003') return new AppError('CONFLICT', { messageKey: 'errors.CHANGED_MEANWHILE', cause: error });
  }
  return new AppError('INTERNAL', { cause: error });
}

export function isUnexpected(error: AppError): boolean {
  return error.code === 'INTERNAL';
}

/** A moment named in a message: shown in the reader's language and the hotel's time zone. */
interface TMomentParam {
  at: Date;
  timeZone: string;
}
const isMoment = (v: unknown): v is TMomentParam =>
  typeof v === 'object' && v !== null && (v as { at?: unknown }).at instanceof Date && typeof (v as { timeZone?: unknown }).timeZone === 'string';

function translatedParams(params: Record<string, unknown> | undefined, lang: TLanguageHeader, i18n: Translator): Record<string, unknown> {
  if (!params) return {};
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      isMoment(v)
        ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: v.timeZone }).format(v.at)
        : typeof v === 'object' && v !== null && typeof (v as { t?: unknown }).t === 'string'
          ? i18n.t(lang, (v as { t: string }).t)
          : v,
    ]),
  );
}

/** The client-facing description of an error, translated into `lang`. */
export function describeAppError(error: AppError, lang: TLanguageHeader, i18n: Translator, units: 'minor' | 'major' = 'minor'): TAppErrorData {
  const { messageKey, params, fields, retryAfterSeconds, money } = error.options;
  const amounts = money
    ? Object.fromEntries(Object.entries(money.amounts).map(([k, v]) => [k, units === 'major' ? fromMinor(v, money.currency) : v]))
    : undefined;
  const details = error.options.details || amounts ? { ...error.options.details, ...amounts } : undefined;
  const values = { ...translatedParams(params, lang, i18n), seconds: retryAfterSeconds };
  const data: TAppErrorData = {
    code: error.code,
    errno: error.errno,
    message: i18n.t(lang, messageKey ?? errorMessageKey(error.code), values),
  };
  // The message's key names the reason for the screen to act on (never its text).
  if (messageKey) data.reason = messageKey;
  // A field's message may name what the main message names (the same values).
  if (fields) data.fields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, i18n.t(lang, v, values)]));
  if (retryAfterSeconds !== undefined) data.retryAfterSeconds = retryAfterSeconds;
  if (details) data.details = details;
  return data;
}
