import { createHash, randomBytes } from 'node:crypto';
import { ROLE_PERMISSIONS, type TRole } from '@console/shared';
import { Prisma, type SessionKind } from '../../generated/prisma/client';
import type { TPrisma } from '../../db/client';
import type { Actor, Deps, RequestMeta } from '../../context';
import { AppError } from '../../errors';

type Db = TPrisma | Prisma.TransactionClient;

export const REVOKE_REASONS = {
  logout: 'logout',
  passwordChanged: 'password_changed',
  passwordReset: 'password_reset',
  accountFrozen: 'account_frozen',
} as const;

/** Sessions are not written on every request: `lastSeenAt` moves at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  deps: Deps,
  input: { accountId: number; hotelId: number; kind: SessionKind; meta: RequestMeta },
): Promise<{ token: string; sessionId: number; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.session.absoluteMs);
  const session = await deps.prisma.session.create({
    data: {
      tokenHash: hashToken(token),
      kind: input.kind,
      accountId: input.accountId,
      hotelId: input.hotelId,
      ip: input.meta.ip,
      userAgent: input.meta.userAgent?.slice(0, 512) ?? null,
      expiresAt,
    },
    select: { id: true },
  });
  return { token, sessionId: session.id, expiresAt };
}

/**
 * The actor behind a session token, or an error the clients know: UNAUTHENTICATED (100003) for a
 * missing, unknown, expired or revoked token; ACCOUNT_FROZEN (9000005) when the account is frozen.
 */
interface SessionRow {
  sessionId: number;
  kind: string;
  expiresAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
  accountId: number;
  frozenAt: Date | null;
  mustChangePassword: boolean;
  membershipId: number | null;
  hotelId: number | null;
  role: TRole | null;
  apiKeyAuth: boolean | null;
  allRooms: boolean | null;
  timeZone: string | null;
  currency: string | null;
}

/**
 * The actor behind a session token, or an error the clients know: UNAUTHENTICATED (100003) for a
 * missing, unknown, expired or revoked token; ACCOUNT_FROZEN (9000005) when the account is frozen.
 * Every authenticated request comes through here, so it is one indexed query.
 */
export async function resolveSession(deps: Deps, token: string | undefined, kind: SessionKind, options: SessionOptions = {}): Promise<Actor> {
  if (!token || token.length > 256) throw new AppError('UNAUTHENTICATED');
  return actorOfSession(deps, Prisma.sql`s."tokenHash" = ${hashToken(token)}`, kind, options);
}

export interface SessionOptions {
  /** A request of the member keeps the session alive; the event feed's own checks (false) do not. */
  touch?: boolean;
  /**
   * The call is changing the password or signing out: allowed to a session whose account must
   * change a password it did not choose, which every other call is refused (issue 39 §7).
   */
  passwordChange?: boolean;
}

/** Why a session may do nothing yet: its account signed in with a password sent to it (`Account.mustChangePassword`). */
export const passwordChangeRequired = () => new AppError('FORBIDDEN', { messageKey: 'changePassword.errors.required' });

/**
 * The actor of a session known by its id (an upload token names the session it was given to),
 * under the same checks as `resolveSession`: the session must still be live.
 */
export async function resolveSessionById(deps: Deps, sessionId: number, kind: SessionKind, options: SessionOptions = {}): Promise<Actor> {
  return actorOfSession(deps, Prisma.sql`s."id" = ${sessionId}`, kind, options);
}

async function actorOfSession(deps: Deps, where: Prisma.Sql, kind: SessionKind, { touch = true, passwordChange = false }: SessionOptions): Promise<Actor> {
  const [session] = await deps.prisma.$queryRaw<SessionRow[]>`
    SELECT s."id" AS "sessionId", s."kind"::text AS "kind", s."expiresAt", s."lastSeenAt", s."revokedAt",
           a."id" AS "accountId", a."frozenAt", a."mustChangePassword",
           m."id" AS "membershipId", m."hotelId", m."role"::text AS "role", m."apiKeyAuth", m."allRooms", h."timeZone", h."currency"
    FROM "Session" s
    JOIN "Account" a ON a."id" = s."accountId"
    LEFT JOIN "Membership" m ON m."accountId" = s."accountId" AND m."hotelId" = s."hotelId"
    LEFT JOIN "Hotel" h ON h."id" = m."hotelId"
    WHERE ${where}`;
  if (!session || session.kind !== kind) throw new AppError('UNAUTHENTICATED');
  if (session.frozenAt) throw new AppError('ACCOUNT_FROZEN');
  const now = Date.now();
  const lastSeen = session.lastSeenAt.getTime();
  if (session.revokedAt || session.expiresAt.getTime() <= now || lastSeen + deps.config.session.idleMs <= now) {
    throw new AppError('UNAUTHENTICATED');
  }
  if (session.membershipId === null || session.hotelId === null || session.role === null) throw new AppError('UNAUTHENTICATED');
  if (session.mustChangePassword && !passwordChange) throw passwordChangeRequired();
  if (touch && now - lastSeen > TOUCH_INTERVAL_MS) {
    await deps.prisma.session.update({ where: { id: session.sessionId }, data: { lastSeenAt: new Date(now) } });
  }
  return {
    sessionId: session.sessionId,
    accountId: session.accountId,
    hotelId: session.hotelId,
    timeZone: session.timeZone ?? 'UTC',
    currency: session.currency ?? 'CNY',
    membershipId: session.membershipId,
    allRooms: session.allRooms ?? true,
    role: session.role,
    permissions: new Set(ROLE_PERMISSIONS[session.role]),
    apiKeyAuth: session.apiKeyAuth ?? false,
  };
}

export async function revokeSession(db: Db, sessionId: number, reason: string): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date(), revokeReason: reason } });
}

/** Revokes every live session of an account: on password change, reset and freezing. */
export async function revokeAccountSessions(db: Db, accountId: number, reason: string): Promise<number> {
  const result = await db.session.updateMany({ where: { accountId, revokedAt: null }, data: { revokedAt: new Date(), revokeReason: reason } });
  return result.count;
}
