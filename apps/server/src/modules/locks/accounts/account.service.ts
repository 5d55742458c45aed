import {
  ZLockAccountBudgetInput,
  ZLockAccountConnectInput,
  ZLockAccountIdInput,
  ZLockAccountReconnectInput,
  ZLockSettingsInput,
  type TCardNumberOrder,
  type TLockAccountListKind,
  type TLockAccountState,
} from '@console/shared';
import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../../context';
import { isUniqueViolation } from '../../../db/errors';
import { transaction } from '../../../db/transaction';
import { recordEvent } from '../../../db/events';
import { AppError } from '../../../errors';
import { platformOf } from '../../../infra/locks';
import { LockProviderError } from '../../../infra/locks/provider';
import type { LockTokens } from '../../../infra/locks/ttlock';
import { requirePermission, requireSession } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { afterCredentialChange } from '../../credentials/delivery';
import { onAccountCall, sealTokens } from '../../lock-cloud/account-provider';
import { budgetState, lockCallCounts, noteLockCall, type TBudgetState } from '../../lock-cloud/call-budget';
import { lockFailed } from '../../base/lock-failure';

/**
 * A hotel's lock accounts (docs/ttlock-account.md): the TTLock user accounts the hotel's locks are
 * in, connected from the console by the owner or an administrator (Settings > Lock accounts). The
 * password is sent to the lock cloud once, as TTLock asks (its MD5), and never kept: the account
 * keeps the tokens it gave, sealed. A hotel may connect several accounts; an account is connected
 * once per hotel.
 */

export interface LockAccountDto {
  id: number;
  username: string;
  kind: TLockAccountListKind;
  label: string;
  state: TLockAccountState;
  /** Why it is not connected, or the last limit met: a code of LOCK_ERROR_CODES. */
  lastError: string | null;
  /** The lock cloud's call limit pauses its calls until then. */
  limitedUntil: string | null;
  monthlyBudget: number;
  calls: { today: number; month: number };
  budget: TBudgetState;
  locks: { total: number; paired: number; gone: number };
  connectedAt: string | null;
  importedAt: string | null;
  /** A Seam workspace's webhook: its path, whether its secret is set, its last event; null for TTLock. */
  webhook: { path: string; configured: boolean; lastEventAt: string | null } | null;
}

/** Owners and administrators, signed in (never an API key): a lock account opens every door of the hotel. */
function requireAccountManager(ctx: AuthedContext): void {
  requireSession(ctx.actor);
  requirePermission(ctx.actor, 'lock.accounts');
}

function cloudOf(ctx: ServiceContext) {
  if (!ctx.deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  return ctx.deps.locks;
}

async function findAccount(ctx: AuthedContext, accountId: number) {
  const account = await ctx.deps.prisma.lockAccount.findFirst({
    where: { id: accountId, hotelId: ctx.actor.hotelId },
    select: { id: true, hotelId: true, username: true, label: true, kind: true, state: true },
  });
  if (!account) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
  return account;
}

/**
 * The tokens of an account from its password; a refusal the person typing can fix is said as such
 * (the account or password, the region, the install's application), anything else as the lock
 * cloud's failure. `onCall` counts the grant in the account's calls (a reconnection's; a new
 * account's is counted once its row exists).
 */
async function grant(ctx: ServiceContext, username: string, password: string, onCall?: (op: string, errcode: number) => void): Promise<LockTokens> {
  // An install of Seam workspaces only (LOCK_PROVIDER=seam) has no TTLock application to sign in with.
  if (!cloudOf(ctx).ttlock) throw new AppError('LOCK_FAILED', { messageKey: 'lockAccounts.errors.ttlockNotInstalled' });
  try {
    return await cloudOf(ctx).passwordGrant(username, password, onCall);
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    if (error.code === 'auth_failed')
      throw new AppError('VALIDATION', { messageKey: 'lockAccounts.errors.wrongPassword', fields: { password: 'lockAccounts.errors.wrongPassword' } });
    if (error.code === 'wrong_region')
      throw new AppError('VALIDATION', {
        messageKey: 'lockAccounts.errors.wrongRegion',
        params: { region: ctx.deps.locks!.region },
        fields: { username: 'lockAccounts.errors.wrongRegion' },
      });
    if (error.code === 'app_refused') throw new AppError('LOCK_FAILED', { messageKey: 'lockAccounts.errors.appRefused' });
    throw lockFailed(error, 'lockAccounts.errors.connectFailed');
  }
}

export async function listLockAccounts(
  ctx: AuthedContext,
): Promise<{ items: LockAccountDto[]; configured: boolean; simulated: boolean; region: string | null; ttlock: boolean; cardNumberOrder: TCardNumberOrder }> {
  requireAccountManager(ctx);
  const rows = await ctx.deps.prisma.lockAccount.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: {
      id: true,
      username: true,
      kind: true,
      label: true,
      state: true,
      lastError: true,
      limitedUntil: true,
      monthlyBudget: true,
      connectedAt: true,
      importedAt: true,
      webhookSecretSealed: true,
      webhookEventAt: true,
    },
    orderBy: { id: 'asc' },
  });
  const ids = rows.map((r) => r.id);
  const [counts, lockStats, paired, hotel] = await Promise.all([
    lockCallCounts(ctx.deps, ids),
    ctx.deps.prisma.lock.groupBy({ by: ['accountId'], where: { hotelId: ctx.actor.hotelId, accountId: { in: ids } }, _count: { _all: true, goneAt: true } }),
    ctx.deps.prisma.lock.groupBy({
      by: ['accountId'],
      where: { hotelId: ctx.actor.hotelId, accountId: { in: ids }, rooms: { some: { deletedAt: null } } },
      _count: { _all: true },
    }),
    ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: ctx.actor.hotelId }, select: { cardNumberOrder: true } }),
  ]);
  const now = new Date();
  const items = rows.map((r): LockAccountDto => {
    const c = counts.get(r.id) ?? { today: 0, month: 0 };
    const stats = lockStats.find((s) => s.accountId === r.id);
    return {
      id: r.id,
      username: r.username,
      kind: r.kind === 'tthotel' || r.kind === 'seam' ? r.kind : 'ttlock',
      label: r.label,
      state: r.state,
      lastError: r.lastError,
      limitedUntil: r.limitedUntil && r.limitedUntil > now ? r.limitedUntil.toISOString() : null,
      monthlyBudget: r.monthlyBudget,
      calls: c,
      budget: budgetState(c.month, r.monthlyBudget),
      locks: { total: stats?._count._all ?? 0, paired: paired.find((p) => p.accountId === r.id)?._count._all ?? 0, gone: stats?._count.goneAt ?? 0 },
      connectedAt: r.connectedAt?.toISOString() ?? null,
      importedAt: r.importedAt?.toISOString() ?? null,
      webhook:
        r.kind === 'seam'
          ? { path: `/api/seam/webhooks/${r.id}`, configured: r.webhookSecretSealed !== null, lastEventAt: r.webhookEventAt?.toISOString() ?? null }
          : null,
    };
  });
  return {
    items,
    // The install has a lock cloud (LOCK_PROVIDER other than none): accounts can be connected.
    configured: ctx.deps.locks !== null,
    simulated: ctx.deps.locks?.simulated ?? false,
    region: ctx.deps.locks?.ttlock ? ctx.deps.locks.region : null,
    // TTLock accounts can be connected (not on an install of Seam workspaces only).
    ttlock: ctx.deps.locks?.ttlock ?? false,
    cardNumberOrder: hotel.cardNumberOrder as TCardNumberOrder,
  };
}

/**
 * Connects a TTLock account to the hotel: its password is sent once and never kept. The password
 * grant is the account's first call and counts in its call budget (a grant refused, before any
 * account exists, counts nowhere).
 */
export async function connectLockAccount(ctx: AuthedContext, raw: z.input<typeof ZLockAccountConnectInput>): Promise<{ id: number }> {
  requireAccountManager(ctx);
  return connectAccount(ctx, ctx.actor.hotelId, ZLockAccountConnectInput.parse(raw));
}

/** The connection itself, for a person (connectLockAccount) or the demo's start. */
export async function connectAccount(
  ctx: ServiceContext & { actor?: Actor },
  hotelId: number,
  input: z.output<typeof ZLockAccountConnectInput>,
): Promise<{ id: number }> {
  const cloud = cloudOf(ctx);
  const taken = await ctx.deps.prisma.lockAccount.findFirst({ where: { hotelId, provider: cloud.name, username: input.username }, select: { id: true } });
  if (taken) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.alreadyConnected', params: { username: input.username } });
  const tokens = await grant(ctx, input.username, input.password);
  try {
    const id = await transaction(ctx.deps, async (tx) => {
      const created = await tx.lockAccount.create({
        data: { hotelId, provider: cloud.name, kind: input.kind, username: input.username, label: input.label, state: 'connected', connectedAt: new Date() },
        select: { id: true, hotelId: true },
      });
      // Sealed bound to the account's own row: it needs its id.
      await tx.lockAccount.update({
        where: { id: created.id },
        data: { tokensSealed: sealTokens(ctx.deps.config.cardKeySecret, created, tokens), tokenExpiresAt: new Date(tokens.expiresAt) },
      });
      await recordAudit(tx, ctx, {
        action: 'lockAccount.connect',
        hotelId,
        entityType: 'LockAccount',
        entityId: created.id,
        after: { username: input.username, kind: input.kind, label: input.label },
      });
      await recordEvent(tx, { hotelId, kind: 'lock.changed' });
      return created.id;
    });
    noteLockCall(ctx.deps, id);
    return { id };
  } catch (error) {
    // The same account connected twice at once: one wins, and its calls count this grant too.
    if (isUniqueViolation(error)) {
      const winner = await ctx.deps.prisma.lockAccount.findFirst({ where: { hotelId, provider: cloud.name, username: input.username }, select: { id: true } });
      if (winner) noteLockCall(ctx.deps, winner.id);
      throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.alreadyConnected', params: { username: input.username } });
    }
    throw error;
  }
}

/**
 * Connects an account again with its password (it needs it again, was disconnected, or is in the
 * other region's host). The grant counts in the account's call budget, refused or not.
 */
export async function reconnectLockAccount(ctx: AuthedContext, raw: z.input<typeof ZLockAccountReconnectInput>): Promise<{ id: number }> {
  requireAccountManager(ctx);
  const input = ZLockAccountReconnectInput.parse(raw);
  const account = await findAccount(ctx, input.accountId);
  // A Seam workspace has no password: it is connected again with its API key (seam-account.service.ts).
  if (platformOf(account.kind) !== 'ttlock') throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.reconnectWithKey' });
  const tokens = await grant(ctx, account.username, input.password, onAccountCall(ctx.deps, account));
  await transaction(ctx.deps, async (tx) => {
    await tx.lockAccount.update({
      where: { id: account.id },
      data: {
        state: 'connected',
        lastError: null,
        limitedUntil: null,
        tokensSealed: sealTokens(ctx.deps.config.cardKeySecret, account, tokens),
        tokenExpiresAt: new Date(tokens.expiresAt),
        connectedAt: new Date(),
      },
    });
    await recordAudit(tx, ctx, {
      action: 'lockAccount.reconnect',
      entityType: 'LockAccount',
      entityId: account.id,
      before: { state: account.state },
      after: { state: 'connected' },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed' });
  });
  ctx.deps.locks?.forget(account.id);
  // Work that waited for the account goes now.
  await afterCredentialChange(ctx.deps, ctx.actor.hotelId);
  return { id: account.id };
}

/** Disconnects an account: its tokens are dropped; its locks stay paired, their work waits for it. */
export async function disconnectLockAccount(ctx: AuthedContext, raw: z.input<typeof ZLockAccountIdInput>): Promise<{ id: number }> {
  requireAccountManager(ctx);
  const { accountId } = ZLockAccountIdInput.parse(raw);
  const account = await findAccount(ctx, accountId);
  await transaction(ctx.deps, async (tx) => {
    await tx.lockAccount.update({ where: { id: account.id }, data: { state: 'disconnected', lastError: null, tokensSealed: null, tokenExpiresAt: null } });
    await recordAudit(tx, ctx, {
      action: 'lockAccount.disconnect',
      entityType: 'LockAccount',
      entityId: account.id,
      before: { state: account.state },
      after: { state: 'disconnected' },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed' });
  });
  ctx.deps.locks?.forget(account.id);
  return { id: account.id };
}

/** Removes a disconnected account and its locks; refused while a room's door is one of them. */
export async function removeLockAccount(ctx: AuthedContext, raw: z.input<typeof ZLockAccountIdInput>): Promise<{ removed: true }> {
  requireAccountManager(ctx);
  const { accountId } = ZLockAccountIdInput.parse(raw);
  const account = await findAccount(ctx, accountId);
  if (account.state !== 'disconnected') throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.disconnectFirst' });
  await transaction(ctx.deps, async (tx) => {
    const paired = await tx.room.count({ where: { hotelId: ctx.actor.hotelId, deletedAt: null, lock: { accountId: account.id } } });
    if (paired > 0) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.locksPaired', params: { count: paired } });
    // Deleted rooms keep no lock either (a room's lock is cleared when it is deleted).
    await tx.room.updateMany({ where: { hotelId: ctx.actor.hotelId, lock: { accountId: account.id } }, data: { lockId: null } });
    const { count } = await tx.lock.deleteMany({ where: { hotelId: ctx.actor.hotelId, accountId: account.id } });
    await tx.lockAccount.delete({ where: { id: account.id } });
    await recordAudit(tx, ctx, {
      action: 'lockAccount.remove',
      entityType: 'LockAccount',
      entityId: account.id,
      names: { name: account.label || account.username },
      before: { username: account.username, locks: count },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed' });
  });
  ctx.deps.locks?.forget(account.id);
  return { removed: true };
}

export async function setLockAccountBudget(ctx: AuthedContext, raw: z.input<typeof ZLockAccountBudgetInput>): Promise<{ id: number; monthlyBudget: number }> {
  requireAccountManager(ctx);
  const input = ZLockAccountBudgetInput.parse(raw);
  const account = await findAccount(ctx, input.accountId);
  await transaction(ctx.deps, async (tx) => {
    const before = await tx.lockAccount.findUniqueOrThrow({ where: { id: account.id }, select: { monthlyBudget: true } });
    await tx.lockAccount.update({ where: { id: account.id }, data: { monthlyBudget: input.monthlyBudget } });
    await recordAudit(tx, ctx, {
      action: 'lockAccount.budget',
      entityType: 'LockAccount',
      entityId: account.id,
      before,
      after: { monthlyBudget: input.monthlyBudget },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed' });
  });
  return { id: account.id, monthlyBudget: input.monthlyBudget };
}

/** The hotel's lock settings: in which byte order its desk reader gives card numbers compared with its locks. */
export async function setLockSettings(ctx: AuthedContext, raw: z.input<typeof ZLockSettingsInput>): Promise<{ cardNumberOrder: TCardNumberOrder }> {
  requireAccountManager(ctx);
  const input = ZLockSettingsInput.parse(raw);
  await transaction(ctx.deps, async (tx) => {
    const before = await tx.hotel.findUniqueOrThrow({ where: { id: ctx.actor.hotelId }, select: { cardNumberOrder: true } });
    await tx.hotel.update({ where: { id: ctx.actor.hotelId }, data: { cardNumberOrder: input.cardNumberOrder } });
    await recordAudit(tx, ctx, { action: 'lock.settings', entityType: 'Hotel', entityId: ctx.actor.hotelId, before, after: input });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'hotel.changed' });
  });
  return input;
}
