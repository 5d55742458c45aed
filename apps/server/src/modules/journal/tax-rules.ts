import { ZTaxRuleInput, type TTaxAppliesTo, type TTaxRuleInput } from '@console/shared';
import type { TTaxRules } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';

type Db = AuthedContext['deps']['prisma'] | Tx;

/**
 * The taxes included in the price (docs/journal.md "Taxes"): one rate a kind of revenue, in force from
 * when it was set; the database's trigger JournalLine_tax books each revenue line net of it and the tax
 * on `tax_payable`. Read by every member who manages orders or the hotel; set by owners and
 * administrators (`hotel.manage`), as the hotel's other settings.
 */
async function rulesOf(db: Db, hotelId: number): Promise<TTaxRules> {
  const rows = await db.taxRule.findMany({ where: { hotelId, retiredAt: null }, select: { appliesTo: true, rateBp: true, createdAt: true } });
  const of = (kind: TTaxAppliesTo) => {
    const r = rows.find((x) => x.appliesTo === kind);
    return r ? { ratePercent: r.rateBp / 100, since: r.createdAt.toISOString() } : null;
  };
  return { rooms: of('rooms'), extras: of('extras') };
}

/** `hotel.taxRules`: the rates in force. */
export async function taxRules(ctx: AuthedContext): Promise<TTaxRules> {
  if (!ctx.actor.permissions.has('hotel.manage')) requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  return rulesOf(ctx.deps.prisma, ctx.actor.hotelId);
}

/**
 * `hotel.setTaxRule`: the rate of a kind of revenue from now on (null: none). The rule in force is
 * retired and the new one made in one transaction under the hotel's row lock, so two saves at once end
 * with one rule in force, each audited; a save that changes nothing writes nothing.
 */
export async function setTaxRule(ctx: AuthedContext, raw: TTaxRuleInput): Promise<TTaxRules> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { appliesTo, ratePercent } = ZTaxRuleInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  const rateBp = ratePercent === null ? null : Math.round(ratePercent * 100);
  return transaction(ctx.deps, async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Hotel" WHERE "id" = ${hotelId} FOR UPDATE`;
    const current = await tx.taxRule.findFirst({ where: { hotelId, appliesTo, retiredAt: null }, select: { id: true, rateBp: true } });
    if ((current?.rateBp ?? null) === rateBp) return rulesOf(tx, hotelId);
    const now = new Date();
    if (current) await tx.taxRule.update({ where: { id: current.id }, data: { retiredAt: now } });
    if (rateBp !== null) await tx.taxRule.create({ data: { hotelId, appliesTo, rateBp, createdAt: now, createdByAccountId: ctx.actor.accountId } });
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
    await recordAudit(tx, ctx, {
      action: 'hotel.setTaxRule',
      entityType: 'Hotel',
      entityId: hotelId,
      before: { appliesTo, ratePercent: current ? current.rateBp / 100 : null },
      after: { appliesTo, ratePercent },
    });
    return rulesOf(tx, hotelId);
  });
}
