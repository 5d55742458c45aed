import { createHash, randomBytes } from 'node:crypto';
import { ROLE_PERMISSIONS } from '@console/shared';
import type { Prisma, SessionKind } from '../../generated/prisma/client';
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
export async function resolveSession(deps: Deps, token: string | undefined, kind: SessionKind): Promise<Actor> {
  if (!token || token.length > 256) throw new AppError('UNAUTHENTICATED');
  const session = await deps.prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      kind: true,
      hotelId: true,
      expiresAt: true,
      lastSeenAt: true,
      revokedAt: true,
      account: {
        select: { id: true, frozenAt: true, memberships: { select: { id: true, hotelId: true, role: true, apiKeyAuth: true, hotel: { select: { timeZone: true } } } } },
      },
    },
  });
  if (!session || session.kind !== kind) throw new AppError('UNAUTHENTICATED');
  if (session.account.frozenAt) throw new AppError('ACCOUNT_FROZEN');
  const now = Date.now();
  if (session.revokedAt || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + deps.config.session.idleMs <= now) {
    throw new AppError('UNAUTHENTICATED');
  }
  const membership = session.account.memberships.find((m) => m.hotelId === session.hotelId);
  if (!membership) throw new AppError('UNAUTHENTICATED');
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: new Date(now) } });
  }
  return {
    sessionId: session.id,
    accountId: session.account.id,
    hotelId: membership.hotelId,
    timeZone: membership.hotel.timeZone,
    membershipId: membership.id,
    role: membership.role,
    permissions: new Set(ROLE_PERMISSIONS[membership.role]),
    apiKeyAuth: membership.apiKeyAuth,
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
