import { Prisma } from '../generated/prisma/client';

/**
 * The PostgreSQL error behind a failed Prisma call: its SQLSTATE code and the constraint it
 * names, whichever way Prisma reports it (a unique violation P2002, or a driver adapter error).
 */
export function databaseConstraint(error: unknown): { code: string; constraint?: string } | undefined {
  // node-postgres's own error (a statement on the pool, decision 019): SQLSTATE and constraint as fields.
  if (error instanceof Error && 'severity' in error) {
    const { code, constraint } = error as unknown as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const meta = error.meta as
    | { driverAdapterError?: { cause?: { originalCode?: string; originalMessage?: string; constraint?: unknown } }; target?: unknown }
    | undefined;
  const cause = meta?.driverAdapterError?.cause;
  if (cause?.originalCode) {
    const named = /constraint "([^"]+)"/.exec(cause.originalMessage ?? '')?.[1];
    return { code: cause.originalCode, constraint: named };
  }
  if (error.code === 'P2002') return { code: '23505', constraint: Array.isArray(meta?.target) ? meta.target.join(',') : String(meta?.target ?? '') };
  return undefined;
}

export function isConstraint(error: unknown, constraint: string): boolean {
  return databaseConstraint(error)?.constraint === constraint;
}

/** A unique violation, optionally on a given field list or index name. */
export function isUniqueViolation(error: unknown, fieldsOrIndex?: string): boolean {
  const found = databaseConstraint(error);
  if (found?.code !== '23505') return false;
  return fieldsOrIndex === undefined || Boolean(found.constraint?.includes(fieldsOrIndex));
}

/** SQLSTATE of a unique violation and of an exclusion violation. */
export const UNIQUE_VIOLATION = '23505';
export const EXCLUSION_VIOLATION = '23P01';
