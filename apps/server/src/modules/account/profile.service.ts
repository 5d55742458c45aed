import type { TChangeEmailInput, TChangeMobileInput } from '@console/shared';
import type { Prisma, SessionKind } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { describeUserAgent, type DeviceInfo } from '../../infra/user-agent';
import { readStoredPictureBytes } from '../../infra/uploads';
import { recordAudit } from '../audit/audit.service';
import { authLimiters, loginFailureCounts, loginThresholds, recordLoginFailure } from '../auth/limits';
import { verifyPassword } from '../auth/password';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';

/**
 * The personal centre (issue 9 §4): what the signed-in account changes about itself (nickname,
 * avatar, e-mail, mobile) and its sessions on every face (web console, legacy clients, the
 * card-service gateway). Every change is audited; a wrong password is refused and audited.
 */

export interface Profile {
  id: number;
  nickname: string;
  avatar: string | null;
  mobile: string | null;
  email: string | null;
  createdAt: Date;
}

const PROFILE_SELECT = { id: true, nickname: true, avatar: true, mobile: true, email: true, createdAt: true } as const;

/** Why a session ended when its own account ended it from the personal centre. */
export const SESSION_REVOKE_REASONS = { signedOutByUser: 'signed_out_by_user', signedOutElsewhere: 'signed_out_elsewhere' } as const;

/** What the staff lists of every hotel of the account show changed (its name, picture, e-mail, mobile). */
async function recordAccountChanged(tx: Prisma.TransactionClient, accountId: number): Promise<void> {
  const memberships = await tx.membership.findMany({ where: { accountId }, select: { id: true, hotelId: true } });
  for (const m of memberships) await recordEvent(tx, { hotelId: m.hotelId, kind: 'staff.changed', membershipId: m.id });
}

export async function getProfile(ctx: AuthedContext): Promise<Profile> {
  return ctx.deps.prisma.account.findUniqueOrThrow({ where: { id: ctx.actor.accountId }, select: PROFILE_SELECT });
}

export async function updateNickname(ctx: AuthedContext, input: { nickname: string }): Promise<Profile> {
  const { deps, actor } = ctx;
  return transaction(deps, async (tx) => {
    const before = await tx.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { nickname: true } });
    const after = await tx.account.update({ where: { id: actor.accountId }, data: { nickname: input.nickname }, select: PROFILE_SELECT });
    if (before.nickname !== input.nickname) {
      await recordAudit(tx, ctx, { action: 'account.nickname', entityType: 'Account', entityId: actor.accountId, before, after: { nickname: input.nickname } });
      await recordAccountChanged(tx, actor.accountId);
    }
    return after;
  });
}

/**
 * Sets the avatar to a picture this account uploaded (`/api/uploads?purpose=avatar`, stored in its
 * hotel's public area), or removes it (null).
 */
export async function setAvatar(ctx: AuthedContext, input: { avatar: string | null }): Promise<Profile> {
  const { deps, actor } = ctx;
  if (input.avatar !== null) {
    // Only a public picture: a face photo stays private (decision 015).
    const stored = await readStoredPictureBytes(deps.files, actor.hotelId, input.avatar, ['public']);
    if (!stored) throw new AppError('VALIDATION', { messageKey: 'validation.pictureInvalid', fields: { avatar: 'validation.pictureInvalid' } });
  }
  return transaction(deps, async (tx) => {
    const before = await tx.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { avatar: true } });
    const after = await tx.account.update({ where: { id: actor.accountId }, data: { avatar: input.avatar }, select: PROFILE_SELECT });
    await recordAudit(tx, ctx, { action: 'account.avatar', entityType: 'Account', entityId: actor.accountId, before, after: { avatar: input.avatar } });
    await recordAccountChanged(tx, actor.accountId);
    return after;
  });
}

/**
 * Checks the account's current password before a change of a sign-in identity. Wrong guesses
 * count against the same limits as sign-in (per account and per address) and are audited.
 */
async function confirmPassword(
  ctx: AuthedContext,
  password: string,
  action: 'account.email' | 'account.mobile',
): Promise<{ mobile: string | null; email: string | null }> {
  const { deps, actor, meta } = ctx;
  const account = await deps.prisma.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { passwordHash: true, mobile: true, email: true } });
  const identity = account.mobile ?? account.email ?? String(actor.accountId);
  const limiters = authLimiters(deps);
  const counts = await loginFailureCounts(limiters, identity, meta.ip);
  const limit = loginThresholds(true);
  if (counts.account >= limit.account || counts.address >= limit.address) {
    await recordAudit(deps.prisma, ctx, { action: `${action}.blocked`, hotelId: null, entityType: 'Account', entityId: actor.accountId });
    throw new AppError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: counts.retryAfterSeconds });
  }
  if (!(await verifyPassword(account.passwordHash, password))) {
    await recordLoginFailure(limiters, identity, meta.ip);
    // An event of the account, not of the hotel (as a failed sign-in is).
    await recordAudit(deps.prisma, ctx, {
      action: `${action}.refused`,
      hotelId: null,
      entityType: 'Account',
      entityId: actor.accountId,
      after: { reason: 'wrong_password' },
    });
    throw new AppError('OLD_PASSWORD_WRONG', { fields: { password: 'errors.OLD_PASSWORD_WRONG' } });
  }
  return { mobile: account.mobile, email: account.email };
}

/** A new e-mail address for signing in: the current password first; no other account may have it. */
export async function changeEmail(ctx: AuthedContext, input: TChangeEmailInput): Promise<Profile> {
  const { deps, actor } = ctx;
  const current = await confirmPassword(ctx, input.password, 'account.email');
  if (current.email === input.email) return getProfile(ctx);
  const taken = await deps.prisma.account.findUnique({ where: { email: input.email }, select: { id: true } });
  if (taken && taken.id !== actor.accountId)
    throw new AppError('CONFLICT', { messageKey: 'settings.errors.emailTaken', fields: { email: 'settings.errors.emailTaken' } });
  return transaction(deps, async (tx) => {
    const after = await tx.account.update({ where: { id: actor.accountId }, data: { email: input.email }, select: PROFILE_SELECT });
    await recordAudit(tx, ctx, {
      action: 'account.email',
      entityType: 'Account',
      entityId: actor.accountId,
      before: { email: current.email },
      after: { email: input.email },
    });
    await recordAccountChanged(tx, actor.accountId);
    return after;
  });
}

/** A new mobile number for signing in: the current password first; no other account may have it. */
export async function changeMobile(ctx: AuthedContext, input: TChangeMobileInput): Promise<Profile> {
  const { deps, actor } = ctx;
  const current = await confirmPassword(ctx, input.password, 'account.mobile');
  if (current.mobile === input.mobile) return getProfile(ctx);
  const taken = await deps.prisma.account.findUnique({ where: { mobile: input.mobile }, select: { id: true } });
  if (taken && taken.id !== actor.accountId)
    throw new AppError('CONFLICT', { messageKey: 'settings.errors.mobileTaken', fields: { mobile: 'settings.errors.mobileTaken' } });
  return transaction(deps, async (tx) => {
    const after = await tx.account.update({ where: { id: actor.accountId }, data: { mobile: input.mobile }, select: PROFILE_SELECT });
    await recordAudit(tx, ctx, {
      action: 'account.mobile',
      entityType: 'Account',
      entityId: actor.accountId,
      before: { mobile: current.mobile },
      after: { mobile: input.mobile },
    });
    await recordAccountChanged(tx, actor.accountId);
    return after;
  });
}

export interface AccountSession {
  id: number;
  kind: SessionKind;
  /** The browser or client that signed in (its user agent), as it said. */
  userAgent: string | null;
  /** What the user agent says: browser and system ("Chrome 156 on Windows"); nulls when it cannot tell. */
  device: DeviceInfo;
  ip: string | null;
  hotelName: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  /** The session this request came with. */
  isCurrent: boolean;
}

/** The account's live sessions on every face (not revoked, not expired, not idle too long), newest activity first. */
export async function listSessions(ctx: AuthedContext): Promise<{ items: AccountSession[] }> {
  const { deps, actor } = ctx;
  const now = Date.now();
  const rows = await deps.prisma.session.findMany({
    where: { accountId: actor.accountId, revokedAt: null, expiresAt: { gt: new Date(now) }, lastSeenAt: { gt: new Date(now - deps.config.session.idleMs) } },
    select: { id: true, kind: true, userAgent: true, ip: true, createdAt: true, lastSeenAt: true, hotel: { select: { name: true } } },
    orderBy: [{ lastSeenAt: 'desc' }, { id: 'desc' }],
    take: 200,
  });
  const items = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    userAgent: r.userAgent,
    device: describeUserAgent(r.userAgent),
    ip: r.ip,
    hotelName: r.hotel?.name ?? null,
    createdAt: r.createdAt,
    lastSeenAt: r.lastSeenAt,
    isCurrent: r.id === actor.sessionId,
  }));
  // The current session first, whatever its last activity.
  items.sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent));
  return { items };
}

/** Ends one other session of this account (the current one ends with sign-out). Another account's is not found. */
export async function revokeOwnSession(ctx: AuthedContext, input: { sessionId: number }): Promise<{ revoked: number }> {
  const { deps, actor } = ctx;
  if (input.sessionId === actor.sessionId) throw new AppError('CONFLICT', { messageKey: 'settings.errors.currentSession' });
  return transaction(deps, async (tx) => {
    const result = await tx.session.updateMany({
      where: { id: input.sessionId, accountId: actor.accountId, revokedAt: null },
      data: { revokedAt: new Date(), revokeReason: SESSION_REVOKE_REASONS.signedOutByUser },
    });
    if (result.count === 0) throw new AppError('NOT_FOUND');
    await recordAudit(tx, ctx, { action: 'auth.session.revoke', entityType: 'Session', entityId: input.sessionId });
    return { revoked: result.count };
  });
}

/** "Sign out everywhere else": every other session of this account, on every face, ends; this one stays. */
export async function revokeOtherSessions(ctx: AuthedContext): Promise<{ revoked: number }> {
  const { deps, actor } = ctx;
  return transaction(deps, async (tx) => {
    const result = await tx.session.updateMany({
      where: { accountId: actor.accountId, revokedAt: null, id: { not: actor.sessionId } },
      data: { revokedAt: new Date(), revokeReason: SESSION_REVOKE_REASONS.signedOutElsewhere },
    });
    await recordAudit(tx, ctx, {
      action: 'auth.session.revokeOthers',
      entityType: 'Session',
      entityId: actor.sessionId,
      after: { revokedSessions: result.count },
    });
    return { revoked: result.count };
  });
}
