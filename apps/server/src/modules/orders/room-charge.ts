import type { TMoneyMethod } from '@console/shared';
import type { AuthedContext, ServiceContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { systemText, type StoredText, type SystemText } from '../../infra/system-text';
import { recordAudit } from '../audit/audit.service';
import { syncCityTax } from './city-tax';
import { roomChargeNights, type KnownRates } from './room-nights';
import { appendEntry, createFolio, folioFigures, loadVisit, openFolio, type Poster, type Visit, type VisitStay } from './folio';
import { toLine } from './entries';

/**
 * The posting rule of the room charge (docs/orders.md, decision 021): once a stay has begun, its
 * folio carries the stay's whole price as room charges: posted when the guest checks in (or a
 * reservation's guest arrives), and brought to the new price whenever the price changes (a renewal
 * adds the nights it adds, a room change the difference, an arrival that moves the dates the new
 * price). A reservation that has not begun carries none. So the folio's balance is what the guest
 * owes for the stay as agreed, at every moment; an early departure credits the nights not used at
 * check-out (`settleFolio`).
 */
export function roomChargeTarget(stay: Pick<VisitStay, 'status' | 'priceAmount'>): number {
  return stay.status === 'in_house' || stay.status === 'expired' || stay.status === 'checked_out' ? stay.priceAmount : 0;
}

export interface RoomChargeSync {
  folioId: number;
  /** The room charges standing before, and what they were brought to. */
  before: number;
  target: number;
  entryIds: number[];
}

/**
 * Brings the room charges standing on a visit's folio to `target` (the posting rule's, unless
 * given), inside the caller's transaction: a shortfall is charged; charges above it are reversed
 * (corrections, with `note`) and the target charged again. Nothing is written when they agree, and
 * nothing on a folio that is settled or was left owing (final). A visit with no folio and nothing
 * to charge gets no folio.
 */
export async function syncRoomCharge(
  tx: Tx,
  poster: Poster,
  visit: Visit,
  note: StoredText,
  target = roomChargeTarget(visit.current),
  { begunHere = false, rates }: { begunHere?: boolean; rates?: KnownRates } = {},
): Promise<RoomChargeSync | null> {
  // A visit whose first stay this transaction wrote has no folio yet: nothing to look for.
  const existing = begunHere
    ? null
    : await tx.folio.findFirst({
        where: { hotelId: poster.hotelId, stayId: visit.first.id },
        select: { id: true, settledAt: true, owedAt: true },
      });
  if (!existing && target === 0) return null;
  if (existing?.settledAt || existing?.owedAt) return null;
  // The visit's first folio, made here, has no entries to read (a stay that has just begun).
  const made = existing ? null : await createFolio(tx, poster, visit.first.id);
  const folio = made ?? (await openFolio(tx, poster, visit.first.id));
  const rows = made
    ? []
    : await tx.orderEntry.findMany({
        where: { hotelId: poster.hotelId, folioId: folio.id },
        select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true, taxRuleId: true },
        orderBy: { id: 'asc' },
      });
  const lines = rows.map(toLine);
  const before = folioFigures(lines).roomChargePosted;
  const entryIds: number[] = [];
  const on = { stayId: visit.current.id, roomId: visit.current.roomId, folioId: folio.id };
  let posted = before;
  if (posted > target) {
    const corrected = new Set(lines.filter((l) => l.kind === 'correction').map((l) => l.linkedEntryId));
    for (const line of lines.filter((l) => l.kind === 'room_charge' && !corrected.has(l.id))) {
      entryIds.push(await appendEntry(tx, poster, { kind: 'correction', amount: -line.amount, method: null, note, linkedEntryId: line.id, ...on }));
    }
    posted = 0;
  }
  let cityTax: boolean | undefined;
  if (target > posted) {
    // A folio made here books nothing yet: its journal is not read.
    const spread = await roomChargeNights(tx, poster, visit, made ? null : folio.id, target, rates);
    const { nights } = spread;
    cityTax = spread.cityTax;
    entryIds.push(
      await appendEntry(tx, poster, {
        kind: 'room_charge',
        amount: -(target - posted),
        method: null,
        note: addedNote(before, entryIds.length > 0, note),
        nights,
        ...on,
      }),
    );
  }
  // The city tax follows the nights the room charges are for.
  entryIds.push(
    ...(await syncCityTax(
      tx,
      poster,
      visit,
      folio.id,
      target > 0,
      rows.some((r) => r.taxRuleId !== null),
      cityTax,
    )),
  );
  return { folioId: folio.id, before, target, entryIds };
}

/**
 * The note of a room charge posted after the first: charged again after the earlier ones were
 * reversed (`note`, the caller's: recomputed), or the difference of a dearer stay (more nights,
 * another room): added, not "recomputed". The first charge has none.
 */
function addedNote(before: number, reversed: boolean, note: StoredText): StoredText {
  if (before === 0) return '';
  return reversed ? note : systemText('orders.notes.roomChargeAdded');
}

/** The note of a room charge brought to a new price: a code, read in each reader's language. */
export const roomChargeNote = (): SystemText => systemText('orders.notes.roomChargeRecomputed');

/**
 * The posting rule applied after a stay's price or state changed, inside the stay service's
 * transaction, audited when it wrote something (`order.roomCharge`). `poster` is the actor, or the
 * server (a job) with the hotel's currency.
 */
export async function followRoomCharge(tx: Tx, ctx: ServiceContext, poster: Poster, stayId: number): Promise<RoomChargeSync | null> {
  return followVisitRoomCharge(tx, ctx, poster, await loadVisit(tx, poster.hotelId, stayId));
}

/** `followRoomCharge` of a visit the caller has in hand (`begunHere`: its first stay was written in this transaction). */
async function followVisitRoomCharge(
  tx: Tx,
  ctx: ServiceContext,
  poster: Poster,
  visit: Visit,
  options: { begunHere?: boolean; rates?: KnownRates } = {},
): Promise<RoomChargeSync | null> {
  const sync = await syncRoomCharge(tx, poster, visit, roomChargeNote(), roomChargeTarget(visit.current), options);
  if (sync?.entryIds.length) {
    await recordAudit(tx, ctx, {
      action: 'order.roomCharge',
      hotelId: poster.hotelId,
      entityType: 'Folio',
      entityId: sync.folioId,
      before: { roomChargePosted: sync.before },
      after: { roomCharge: sync.target, entryIds: sync.entryIds },
    });
  }
  return sync;
}

/**
 * At check-in (or a reservation made at the desk): the room charge when the stay begins now, and
 * the deposit received (with how). `stay` is the stay just written in this transaction, with its
 * room's name: a new stay is its visit's first and only one (the database's `Stay_visit` names it
 * its own visit), so nothing is read back. `rates`: the room's rates its price was quoted at.
 */
export async function postStayMoney(
  tx: Tx,
  ctx: AuthedContext,
  stay: VisitStay,
  deposit: { amount: number; method: TMoneyMethod } | null,
  rates?: KnownRates,
): Promise<void> {
  const { actor } = ctx;
  const sync = await followVisitRoomCharge(tx, ctx, actor, { first: stay, current: stay, stays: [stay] }, { begunHere: true, rates });
  if (!deposit || deposit.amount <= 0) return;
  // The folio the room charge was posted on is held by this transaction already.
  const folioId = sync?.folioId ?? (await openFolio(tx, actor, stay.id)).id;
  const id = await appendEntry(tx, actor, {
    kind: 'deposit',
    amount: deposit.amount,
    method: deposit.method,
    note: '',
    stayId: stay.id,
    roomId: stay.roomId,
    folioId,
  });
  await recordAudit(tx, ctx, {
    action: 'order.deposit',
    entityType: 'OrderEntry',
    entityId: id,
    after: { stayId: stay.id, folioId, amount: deposit.amount, method: deposit.method, atCheckIn: true },
  });
}
