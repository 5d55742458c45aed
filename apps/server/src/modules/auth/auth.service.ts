import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  LIMITS,
  LOGIN_LIMITS,
  ROLE_PERMISSIONS,
  ZSwitchHotelInput,
  normalizeAccount,
  type TChangePasswordInput,
  type TRole,
  type TResetPasswordInput,
  type TSendResetCodeInput,
} from '@console/shared';
import type { z } from 'zod';
import type { SessionKind } from '../../generated/prisma/client';
import type { AuthedContext, ServiceContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { consumeCaptcha } from '../../infra/captcha';
import { requireSession } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { authLimiters, clearLoginFailures, consumeOrThrow, loginFailureCounts, loginThresholds, recordLoginFailure } from './limits';
import { hashPassword, verifyPassword } from './password';
import { REVOKE_REASONS, createSession, passwordChangeRequired, revokeAccountSessions, revokeSession } from './session.service';

/** What the console shows of the signed-in account (never a credential). */
export interface UserInfo {
  id: number;
  nickname: string;
  mobile: string | null;
  email: string | null;
  avatar: string | null;
  apiKeyAuth: boolean;
  role: TRole;
  permissions: string[];
  hotel: { id: number; name: string; timeZone: string; currency: string };
  /** How many hotels the account belongs to: more than one, and the console offers to switch (switchHotel). */
  hotelCount: number;
  /** A password the account did not choose: only changing it or signing out is allowed until it is changed (issue 39 §7). */
  mustChangePassword: boolean;
}

export interface LoginInput {
  /** A mobile number or an e-mail address, already validated. */
  account: string;
  password: string;
  /** The graphic code; the web console always sends one, a legacy client may not. */
  captcha?: { id: string; code: string };
  kind: SessionKind;
}

export async function login(ctx: ServiceContext, input: LoginInput): Promise<{ token: string; user: UserInfo }> {
  const { deps, meta } = ctx;
  const account = normalizeAccount(input.account);
  const limiters = authLimiters(deps);
  const hasCode = input.captcha !== undefined;

  // 1. Limits, before anything expensive.
  const counts = await loginFailureCounts(limiters, account, meta.ip);
  const limit = loginThresholds(hasCode);
  if (counts.account >= limit.account || counts.address >= limit.address) {
    await recordAudit(deps.prisma, ctx, { action: 'auth.login.blocked', accountId: null, after: { account, kind: input.kind } });
    throw new AppError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: counts.retryAfterSeconds });
  }

  // 2. The graphic code: always checked when sent; required after repeated failures.
  if (input.captcha) {
    if (!(await consumeCaptcha(deps, input.captcha.id, input.captcha.code))) throw new AppError('CAPTCHA_INVALID');
  } else if (counts.account >= LOGIN_LIMITS.codeRequiredAfterFailures) {
    throw new AppError('CAPTCHA_REQUIRED');
  }

  // 3. The password.
  const found = await deps.prisma.account.findUnique({
    where: account.includes('@') ? { email: account } : { mobile: account },
    select: {
      id: true,
      passwordHash: true,
      frozenAt: true,
      mustChangePassword: true,
      memberships: { select: { hotelId: true }, orderBy: { createdAt: 'asc' }, take: 1 },
    },
  });
  const isValid = await verifyPassword(found?.passwordHash, input.password);
  if (!found || !isValid) {
    const after = await recordLoginFailure(limiters, account, meta.ip);
    await recordAudit(deps.prisma, ctx, { action: 'auth.login.failure', accountId: found?.id ?? null, after: { account, kind: input.kind } });
    if (after.account === limit.account || after.address === limit.address) {
      await recordAudit(deps.prisma, ctx, { action: 'auth.lockout', accountId: found?.id ?? null, after: { account, failures: after } });
    }
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (found.frozenAt) {
    await recordAudit(deps.prisma, ctx, { action: 'auth.login.frozen', accountId: found.id, after: { kind: input.kind } });
    throw new AppError('ACCOUNT_FROZEN');
  }
  const hotelId = found.memberships[0]?.hotelId;
  if (hotelId === undefined) throw new AppError('NO_HOTEL');
  // The card-service gateway cannot change a password: the console (or the legacy client) first.
  if (found.mustChangePassword && input.kind === 'gateway') throw passwordChangeRequired();

  // 4. The session.
  await clearLoginFailures(limiters, account);
  const session = await createSession(deps, { accountId: found.id, hotelId, kind: input.kind, meta });
  await deps.prisma.account.update({ where: { id: found.id }, data: { lastLoginAt: new Date() } });
  await recordAudit(deps.prisma, ctx, {
    action: 'auth.login.success',
    accountId: found.id,
    hotelId,
    entityType: 'Session',
    entityId: session.sessionId,
    after: { kind: input.kind },
  });
  return { token: session.token, user: await loadUserInfo(ctx, found.id, hotelId) };
}

export async function loadUserInfo(ctx: ServiceContext, accountId: number, hotelId: number): Promise<UserInfo> {
  const [membership, hotelCount] = await Promise.all([
    ctx.deps.prisma.membership.findUnique({
      where: { accountId_hotelId: { accountId, hotelId } },
      select: {
        role: true,
        apiKeyAuth: true,
        hotel: { select: { id: true, name: true, timeZone: true, currency: true } },
        account: { select: { id: true, nickname: true, mobile: true, email: true, avatar: true, mustChangePassword: true } },
      },
    }),
    ctx.deps.prisma.membership.count({ where: { accountId } }),
  ]);
  if (!membership) throw new AppError('UNAUTHENTICATED');
  return {
    ...membership.account,
    apiKeyAuth: membership.apiKeyAuth,
    role: membership.role,
    permissions: [...ROLE_PERMISSIONS[membership.role]],
    hotel: membership.hotel,
    hotelCount,
  };
}

export function getUserInfo(ctx: AuthedContext): Promise<UserInfo> {
  return loadUserInfo(ctx, ctx.actor.accountId, ctx.actor.hotelId);
}

/** A hotel the signed-in account belongs to, as the hotel switch lists it. */
export interface AccountHotel {
  id: number;
  name: string;
  role: TRole;
  /** The hotel the current session works in. */
  current: boolean;
}

/**
 * The hotels the signed-in account belongs to, oldest membership first (the one sign-in opens).
 * Freezing acts on the whole account (modules/staff setStaffFrozen), and a frozen account has no
 * session, so no membership here is frozen. Only a member's own session asks: never an API key.
 */
export async function listAccountHotels(ctx: AuthedContext): Promise<AccountHotel[]> {
  const { deps, actor } = ctx;
  requireSession(actor);
  const rows = await deps.prisma.membership.findMany({
    where: { accountId: actor.accountId, account: { frozenAt: null } },
    select: { role: true, hotel: { select: { id: true, name: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => ({ id: r.hotel.id, name: r.hotel.name, role: r.role, current: r.hotel.id === actor.hotelId }));
}

/**
 * Moves the current session (this one only: the account's other sessions stay where they are) to
 * another hotel of the account; every later request of the session works in that hotel, with the
 * role and rooms of the account there. The session row is changed in place, the token stays
 * (docs/decisions/017-hotel-switch-in-the-session.md). A hotel the account does not belong to, or
 * belongs to while frozen, is "not found" as any other hotel's record is; an API key never switches.
 * The switch is recorded in the audit log of both hotels (each entry names only its own hotel).
 */
export async function switchHotel(ctx: AuthedContext, raw: z.input<typeof ZSwitchHotelInput>): Promise<UserInfo> {
  const { deps, actor } = ctx;
  requireSession(actor);
  const { hotelId } = ZSwitchHotelInput.parse(raw);
  if (hotelId === actor.hotelId) return getUserInfo(ctx);
  await transaction(deps, async (tx) => {
    // The membership is held until the switch commits: removing it at the same time waits, then
    // ends this session with the others of that hotel (modules/staff removeStaff).
    const [membership] = await tx.$queryRaw<{ id: number }[]>`
      SELECT m."id" FROM "Membership" m JOIN "Account" a ON a."id" = m."accountId"
      WHERE m."accountId" = ${actor.accountId} AND m."hotelId" = ${hotelId} AND a."frozenAt" IS NULL
      FOR SHARE OF m`;
    if (!membership) throw new AppError('NOT_FOUND');
    const moved = await tx.session.updateMany({ where: { id: actor.sessionId, revokedAt: null }, data: { hotelId } });
    if (moved.count !== 1) throw new AppError('UNAUTHENTICATED');
    const session = { entityType: 'Session' as const, entityId: actor.sessionId };
    await recordAudit(tx, ctx, { action: 'auth.hotel.leave', hotelId: actor.hotelId, ...session, before: { membershipId: actor.membershipId } });
    await recordAudit(tx, ctx, { action: 'auth.hotel.enter', hotelId, ...session, after: { membershipId: membership.id } });
  });
  return loadUserInfo(ctx, actor.accountId, hotelId);
}

export async function logout(ctx: AuthedContext): Promise<void> {
  requireSession(ctx.actor);
  await revokeSession(ctx.deps.prisma, ctx.actor.sessionId, REVOKE_REASONS.logout);
  await recordAudit(ctx.deps.prisma, ctx, { action: 'auth.logout', entityType: 'Session', entityId: ctx.actor.sessionId });
}

/**
 * Changes the password and ends every session of the account: the user signs in again. A password
 * the account did not choose (issue 39 §7) is changed for another one, and no longer must be.
 */
export async function changePassword(ctx: AuthedContext, input: TChangePasswordInput): Promise<void> {
  const { deps, actor } = ctx;
  requireSession(actor);
  const account = await deps.prisma.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { passwordHash: true } });
  if (!(await verifyPassword(account.passwordHash, input.oldPassword))) throw new AppError('OLD_PASSWORD_WRONG');
  const passwordHash = await hashPassword(input.newPassword);
  await transaction(deps, async (tx) => {
    await tx.account.update({ where: { id: actor.accountId }, data: { passwordHash, passwordChangedAt: new Date(), mustChangePassword: false } });
    const revoked = await revokeAccountSessions(tx, actor.accountId, REVOKE_REASONS.passwordChanged);
    await recordAudit(tx, ctx, { action: 'auth.password.change', entityType: 'Account', entityId: actor.accountId, after: { revokedSessions: revoked } });
  });
}

function resetKey(ctx: ServiceContext, mobile: string) {
  return ctx.deps.key('pwreset', mobile);
}

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/**
 * Sends a 6-digit recovery code by SMS (through the job queue). The answer is the same whether
 * or not the number has an account, so it cannot be used to find accounts.
 */
export async function sendResetCode(ctx: ServiceContext, input: TSendResetCodeInput): Promise<void> {
  const { deps, meta } = ctx;
  if (deps.config.sms.provider === 'none') throw new AppError('SERVICE_UNAVAILABLE', { messageKey: 'errors.SMS_DISABLED' });
  const limiters = authLimiters(deps);
  await consumeOrThrow([
    [limiters.smsPerAddress, meta.ip],
    [limiters.smsPerMinute, input.mobile],
    [limiters.smsPerHour, input.mobile],
  ]);
  const account = await deps.prisma.account.findUnique({ where: { mobile: input.mobile }, select: { id: true, frozenAt: true } });
  await recordAudit(deps.prisma, ctx, {
    action: 'auth.reset.request',
    accountId: account?.id ?? null,
    after: { mobile: input.mobile, known: Boolean(account) },
  });
  if (!account || account.frozenAt) return;
  const code = String(randomInt(0, 10 ** LIMITS.smsCodeLength)).padStart(LIMITS.smsCodeLength, '0');
  await deps.redis
    .multi()
    .del(resetKey(ctx, input.mobile))
    .hset(resetKey(ctx, input.mobile), { hash: hashCode(code), attempts: 0 })
    .expire(resetKey(ctx, input.mobile), LIMITS.smsCodeTtlSeconds)
    .exec();
  await deps.queues.sms.add('resetCode', {
    to: input.mobile,
    template: 'resetCode',
    params: { code, minutes: LIMITS.smsCodeTtlSeconds / 60 },
    lang: meta.lang,
  });
}

/** Sets a new password with a recovery code (single use, 10 minutes, 5 tries) and ends all sessions. */
export async function resetPassword(ctx: ServiceContext, input: TResetPasswordInput): Promise<void> {
  const { deps } = ctx;
  const key = resetKey(ctx, input.mobile);
  const stored = await deps.redis.hgetall(key);
  if (!stored.hash) throw new AppError('SMS_CODE_INVALID');
  const given = Buffer.from(hashCode(input.code));
  const isMatch = given.length === stored.hash.length && timingSafeEqual(given, Buffer.from(stored.hash));
  if (!isMatch) {
    const attempts = await deps.redis.hincrby(key, 'attempts', 1);
    if (attempts >= LIMITS.smsCodeMaxAttempts) await deps.redis.del(key);
    throw new AppError('SMS_CODE_INVALID');
  }
  // Whoever deletes the code first uses it; a concurrent second use fails.
  if ((await deps.redis.del(key)) !== 1) throw new AppError('SMS_CODE_INVALID');
  const account = await deps.prisma.account.findUnique({ where: { mobile: input.mobile }, select: { id: true } });
  if (!account) throw new AppError('SMS_CODE_INVALID');
  const passwordHash = await hashPassword(input.newPassword);
  await transaction(deps, async (tx) => {
    await tx.account.update({ where: { id: account.id }, data: { passwordHash, passwordChangedAt: new Date(), mustChangePassword: false } });
    const revoked = await revokeAccountSessions(tx, account.id, REVOKE_REASONS.passwordReset);
    await recordAudit(tx, ctx, {
      action: 'auth.password.reset',
      accountId: account.id,
      entityType: 'Account',
      entityId: account.id,
      after: { revokedSessions: revoked },
    });
  });
  await clearLoginFailures(authLimiters(deps), input.mobile);
}
