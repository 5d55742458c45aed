import { ACCOUNT_CODE_KEYS, ZAccountCodesInput, type TAccountCodeKey, type TAccountCodesInput } from '@console/shared';
import type { TAccountCodes } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';

type Db = AuthedContext['deps']['prisma'] | Tx;
/** `pg_advisory_xact_lock`'s class of a hotel's codes (the other key is the hotel). */
const ACCOUNT_CODES_LOCK = 36_001;

/**
 * The hotel's chart-of-accounts codes (docs/journal.md "The general-ledger export"): the code its
 * own accounting knows each of the journal's accounts by (and the money account per way of
 * paying). Read and set by managers of the whole hotel (`order.manage`), as the trial balance.
 */

/** The hotel's codes by key (`guest`, `money.cash`...): what the export maps its lines with. */
export async function accountCodeMap(db: Db, hotelId: number): Promise<Map<string, string>> {
  const rows = await db.accountCode.findMany({ where: { hotelId }, select: { key: true, code: true } });
  return new Map(rows.map((r) => [r.key, r.code]));
}

async function codesOf(db: Db, hotelId: number): Promise<TAccountCodes> {
  const rows = await db.accountCode.findMany({ where: { hotelId }, select: { key: true, code: true, updatedAt: true } });
  const known = new Set<string>(ACCOUNT_CODE_KEYS);
  const codes = rows
    .filter((r) => known.has(r.key))
    .map((r) => ({ key: r.key as TAccountCodeKey, code: r.code }))
    .sort((a, b) => ACCOUNT_CODE_KEYS.indexOf(a.key) - ACCOUNT_CODE_KEYS.indexOf(b.key));
  const latest = rows.reduce<Date | null>((at, r) => (!at || r.updatedAt > at ? r.updatedAt : at), null);
  return { codes, updatedAt: latest?.toISOString() ?? null };
}

/** `order.accountCodes`: the hotel's codes, in the order of the accounts. */
export async function accountCodes(ctx: AuthedContext): Promise<TAccountCodes> {
  requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  return codesOf(ctx.deps.prisma, ctx.actor.hotelId);
}

/**
 * `order.setAccountCodes`: the hotel's codes, all at once (a key left out or blank has none from
 * now on). A save that changes a code records `hotel.changed` and its audit entry (the codes before
 * and after) in the same transaction; a save that changes nothing writes nothing.
 */
export async function setAccountCodes(ctx: AuthedContext, raw: TAccountCodesInput): Promise<TAccountCodes> {
  requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  const input = ZAccountCodesInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  const wanted = new Map(input.codes.filter((c) => c.code !== '').map((c) => [c.key, c.code]));
  return transaction(ctx.deps, async (tx) => {
    // One save at a time per hotel: two managers saving at once end with one's codes, each audited.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ACCOUNT_CODES_LOCK}::int, ${hotelId}::int)`;
    const before = await accountCodeMap(tx, hotelId);
    const removed = [...before.keys()].filter((key) => !wanted.has(key as TAccountCodeKey));
    const changed = [...wanted].filter(([key, code]) => before.get(key) !== code);
    if (removed.length === 0 && changed.length === 0) return codesOf(tx, hotelId);
    const now = new Date();
    if (removed.length > 0) await tx.accountCode.deleteMany({ where: { hotelId, key: { in: removed } } });
    for (const [key, code] of changed) {
      await tx.accountCode.upsert({
        where: { hotelId_key: { hotelId, key } },
        create: { hotelId, key, code, updatedAt: now },
        update: { code, updatedAt: now },
      });
    }
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
    await recordAudit(tx, ctx, {
      action: 'order.accountCodes',
      entityType: 'Hotel',
      entityId: hotelId,
      before: Object.fromEntries(before),
      after: Object.fromEntries(wanted),
    });
    return codesOf(tx, hotelId);
  });
}
