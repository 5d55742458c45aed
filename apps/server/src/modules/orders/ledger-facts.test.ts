import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ledgerFacts, planSettlement, type LedgerLine } from './ledger-facts';

/**
 * The settlement plan on its own (no database): for any folio made of room charges, charges,
 * deposits, payments, refunds within their payments and corrections, the plan's entries plus the
 * payment of what it says is owed bring the balance to zero; it refunds nothing beyond what is left
 * of a deposit or payment, charges the room exactly what is due, and keeps or refunds the deposit.
 */
const notes = { roomChargeRecomputed: 'recomputed', depositKept: 'kept', depositRefund: 'deposit back', refund: 'back' };

/** A folio built by valid steps: each refund within what is left, each correction of a live entry. */
const folio: fc.Arbitrary<LedgerLine[]> = fc
  .array(
    fc.oneof(
      fc.record({ t: fc.constantFrom('room_charge', 'charge', 'deposit', 'payment'), amount: fc.integer({ min: 1, max: 30_000 }) }),
      fc.record({ t: fc.constant('refund'), pick: fc.nat(), share: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
      fc.record({ t: fc.constant('correction'), pick: fc.nat() }),
    ),
    { maxLength: 15 },
  )
  .map((steps) => {
    const lines: LedgerLine[] = [];
    let id = 1;
    for (const step of steps) {
      const facts = ledgerFacts(lines);
      if (step.t === 'refund') {
        const sources = lines.filter((l) => (facts.refundable.get(l.id) ?? 0) > 0);
        if (!sources.length) continue;
        const source = sources[step.pick % sources.length]!;
        const amount = Math.max(1, Math.floor((facts.refundable.get(source.id) ?? 0) * step.share));
        lines.push({ id: id++, kind: 'refund', amount: -amount, method: 'cash', linkedEntryId: source.id });
      } else if (step.t === 'correction') {
        const live = lines.filter((l) => l.kind !== 'correction' && !facts.correctedBy.has(l.id) && (facts.refundable.get(l.id) ?? l.amount) === l.amount);
        if (!live.length) continue;
        const target = live[step.pick % live.length]!;
        lines.push({ id: id++, kind: 'correction', amount: -target.amount, method: target.method, linkedEntryId: target.id });
      } else {
        const positive = step.t === 'deposit' || step.t === 'payment';
        lines.push({ id: id++, kind: step.t, amount: positive ? step.amount : -step.amount, method: positive ? 'wechat' : null, linkedEntryId: null });
      }
    }
    return lines;
  });

describe('planSettlement', () => {
  it('balances any folio to zero with the payment of what it says is owed, within every payment', () => {
    fc.assert(
      fc.property(folio, fc.integer({ min: 0, max: 60_000 }), fc.constantFrom('refund' as const, 'keep' as const), (lines, due, deposit) => {
        const plan = planSettlement(lines, { roomChargeDue: due, deposit, depositReason: 'why', notes });
        expect(plan.unreturnable).toBe(0);
        const after = [
          ...lines,
          ...plan.entries.map((e, i) => ({ id: 10_000 + i, kind: e.kind, amount: e.amount, method: e.method, linkedEntryId: e.linkedEntryId })),
        ];
        const facts = ledgerFacts(after);
        expect(facts.balance + plan.owed).toBe(0);
        expect(facts.roomChargePosted).toBe(due);
        for (const left of facts.refundable.values()) expect(left).toBeGreaterThanOrEqual(0);
        if (deposit === 'keep') expect(plan.deposit.kept).toBe(ledgerFacts(lines).depositHeld);
        // Money goes back only when the guest owes nothing.
        if (plan.refunded > 0) expect(plan.owed).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('charges the room what is due: a shortfall is added, an excess reversed and charged again', () => {
    const lines: LedgerLine[] = [{ id: 1, kind: 'room_charge', amount: -30_000, method: null, linkedEntryId: null }];
    expect(planSettlement(lines, { roomChargeDue: 40_000, deposit: 'refund', depositReason: '', notes }).entries).toEqual([
      { kind: 'room_charge', amount: -10_000, method: null, linkedEntryId: null, note: 'recomputed' },
    ]);
    expect(planSettlement(lines, { roomChargeDue: 20_000, deposit: 'refund', depositReason: '', notes }).entries).toEqual([
      { kind: 'correction', amount: 30_000, method: null, linkedEntryId: 1, note: 'recomputed' },
      { kind: 'room_charge', amount: -20_000, method: null, linkedEntryId: null, note: 'recomputed' },
    ]);
  });
});
