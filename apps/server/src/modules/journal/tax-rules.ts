import { ZCityTaxInput, ZTaxRuleInput, type TCityTaxInput, type TTaxAppliesTo, type TTaxMode, type TTaxRuleInput } from '@console/shared';
import type { TTaxRules } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';

type Db = AuthedContext['deps']['prisma'] | Tx;

/**
 * The hotel's taxes (docs/journal.md "Taxes"): a rate a kind of revenue, included in the price (the
 * database's trigger JournalLine_tax books each revenue line net of it and the tax on `tax_payable`)
 * or added on top (trigger OrderEntry_tax_added: a tax charge on the bill with each charge), and the
 * city tax per person and night (orders/city-tax.ts), each in force from when it was set. Read by every
 * member who manages orders or the hotel; set by owners and administrators (`hotel.manage`), as the
 * hotel's other settings.
 */
async function rulesOf(db: Db, hotelId: number): Promise<TTaxRules> {
  const rows = await db.taxRule.findMany({
    where: { hotelId, retiredAt: null },
    select: { appliesTo: true, mode: true, rateBp: true, amountPerNight: true, createdAt: true },
  });
  const of = (kind: TTaxAppliesTo) => {
    const r = rows.find((x) => x.appliesTo === kind);
    return r?.rateBp ? { ratePercent: r.rateBp / 100, mode: r.mode as TTaxMode, since: r.createdAt.toISOString() } : null;
  };
  const city = rows.find((x) => x.appliesTo === 'city');
  return {
    rooms: of('rooms'),
    extras: of('extras'),
    city: city?.amountPerNight ? { amountPerNight: city.amountPerNight, since: city.createdAt.toISOString() } : null,
  };
}

/** A rule's terms: a rate and whether it is added, or the city tax's amount. */
type Terms = { rateBp: number; mode: TTaxMode; amountPerNight: null } | { rateBp: null; mode: 'added'; amountPerNight: number };

/**
 * Puts `terms` in force for `appliesTo` from now on (null: none): the rule in force is retired and the
 * new one made in one transaction under the hotel's row lock, so two saves at once end with one rule in
 * force, each audited; a save that changes nothing writes nothing.
 */
async function putInForce(
  ctx: AuthedContext,
  appliesTo: TTaxAppliesTo | 'city',
  terms: Terms | null,
  said: { before: (r: Terms | null) => object; after: object },
) {
  const hotelId = ctx.actor.hotelId;
  return transaction(ctx.deps, async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Hotel" WHERE "id" = ${hotelId} FOR UPDATE`;
    const current = await tx.taxRule.findFirst({
      where: { hotelId, appliesTo, retiredAt: null },
      select: { id: true, rateBp: true, mode: true, amountPerNight: true },
    });
    const was = current ? ({ rateBp: current.rateBp, mode: current.mode, amountPerNight: current.amountPerNight } as Terms) : null;
    if (JSON.stringify(was) === JSON.stringify(terms)) return rulesOf(tx, hotelId);
    const now = new Date();
    if (current) await tx.taxRule.update({ where: { id: current.id }, data: { retiredAt: now } });
    if (terms) await tx.taxRule.create({ data: { hotelId, appliesTo, ...terms, createdAt: now, createdByAccountId: ctx.actor.accountId } });
    await recordEvent(tx, { hotelId, kind: 'hotel.changed' });
    await recordAudit(tx, ctx, { action: 'hotel.setTaxRule', entityType: 'Hotel', entityId: hotelId, before: said.before(was), after: said.after });
    return rulesOf(tx, hotelId);
  });
}

/** `hotel.taxRules`: the rates in force. */
export async function taxRules(ctx: AuthedContext): Promise<TTaxRules> {
  if (!ctx.actor.permissions.has('hotel.manage')) requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  return rulesOf(ctx.deps.prisma, ctx.actor.hotelId);
}

/** `hotel.setTaxRule`: the rate of a kind of revenue from now on, included or added (null: none). */
export async function setTaxRule(ctx: AuthedContext, raw: TTaxRuleInput): Promise<TTaxRules> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { appliesTo, ratePercent, mode } = ZTaxRuleInput.parse(raw);
  const terms: Terms | null = ratePercent === null ? null : { rateBp: Math.round(ratePercent * 100), mode, amountPerNight: null };
  return putInForce(ctx, appliesTo, terms, {
    before: (was) => ({ appliesTo, ratePercent: was?.rateBp ? was.rateBp / 100 : null, ...(was ? { mode: was.mode } : {}) }),
    after: { appliesTo, ratePercent, ...(terms ? { mode } : {}) },
  });
}

/** `hotel.setCityTax`: the city tax per person and night from now on (null: none). */
export async function setCityTax(ctx: AuthedContext, raw: TCityTaxInput): Promise<TTaxRules> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { amountPerNight } = ZCityTaxInput.parse(raw);
  const terms: Terms | null = amountPerNight === null ? null : { rateBp: null, mode: 'added', amountPerNight };
  return putInForce(ctx, 'city', terms, {
    before: (was) => ({ appliesTo: 'city', amountPerNight: was?.amountPerNight ?? null }),
    after: { appliesTo: 'city', amountPerNight },
  });
}
