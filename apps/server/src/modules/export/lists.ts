import type { TExportList } from '@console/shared/export';
import type { AuthedContext } from '../../context';
import { cursorOf, type KeysetCursor } from '../../db/keyset';
import { listAuditLog } from '../audit/audit-log';
import { listPasswords } from '../credentials/password.service';
import { listCustomers } from '../customers/customer.service';
import { countGeneralLedger, generalLedgerAfter, generalLedgerPage, type GeneralLedgerLine } from '../journal/general-ledger';
import { trialBalanceLines, type TrialBalanceLine } from '../journal/trial-balance-lines';
import { countOrders, listOrders, listOrdersAfter } from '../orders/order-list';
import { listRooms } from '../room/room-list';
import { listGuests } from '../stays/guests';
import { countStays, listStays, listStaysAfter } from '../stays/stay-list';
import { countRecordsByPerson, listRecordsByPerson, listRecordsByPersonAfter } from '../unlock-records/unlock-record.service';
import { countAuditLog, listAuditLogAfter } from './audit-source';

/**
 * The lists that can be exported (issue 9 §5). Each entry reads its rows through the very service
 * the console's list uses (so its permission, tenancy and room scope apply unchanged), one page at
 * a time, and says how each row becomes cells. A new list is one more entry here and its name in
 * `EXPORT_LISTS` (packages/shared/src/export.ts).
 *
 * Headers are i18n keys, mostly the ones the console's table shows; values that are codes (a
 * status, a kind) are translated with the keys the console uses for them.
 */
export type CellKind = 'text' | 'number' | 'time' | 'money';

/** What a cell's value function may use: the operator's language and the hotel. */
export interface CellScope {
  t(key: string, params?: Record<string, unknown>): string;
  /** A code translated with `prefix.code`, or the code itself when the console has no text for it. */
  code(prefix: string, code: string | null | undefined): string | null;
}

export interface ExportColumn<Row> {
  /** The i18n key of the header; a money column's header gets the currency after it. */
  header: string;
  kind: CellKind;
  width?: number;
  /** Text, a number, an ISO time or minor units, by kind. */
  value(row: Row, scope: CellScope): string | number | null | undefined;
}

export interface ExportPage<Row> {
  items: Row[];
  total: number;
}

export interface ExportListDefinition<Row = unknown> {
  /** The i18n key of the list's name: the default file name starts with it. */
  title: string;
  /** One page of the list for these filters, through the list's own service. */
  read(ctx: AuthedContext, filters: Record<string, unknown>, page: number, pageSize: number): Promise<ExportPage<Row>>;
  columns: ExportColumn<Row>[];
  /**
   * The large lists read whole by keyset (db/keyset.ts), not by OFFSET pages, so that exporting
   * everything costs what the rows are, not their square: the same service's checks and conditions,
   * in the list's order.
   */
  keyset?: KeysetSource<Row>;
  /** What a row counts toward besides the rows (a name), shown with the finished file (`ExportView.tallies`): the general ledger's unmapped lines. */
  tally?(row: Row): string | null;
}

export interface KeysetSource<Row> {
  /** How many rows match, counted up to `cap` (the progress bar's total). */
  count(ctx: AuthedContext, filters: Record<string, unknown>, cap: number): Promise<number>;
  /** Up to `limit` rows after `after` (from the first when null), in the list's order. */
  after(ctx: AuthedContext, filters: Record<string, unknown>, after: KeysetCursor | null, limit: number): Promise<Row[]>;
  /** Where a chunk ending with this row ends. */
  cursor(row: Row): KeysetCursor;
}

/** Keeps each entry's row type while the registry holds them side by side. */
function defineList<Row>(definition: ExportListDefinition<Row>): ExportListDefinition {
  return definition as unknown as ExportListDefinition;
}

type RoomRow = Awaited<ReturnType<typeof listRooms>>['items'][number];
type StayRow = Awaited<ReturnType<typeof listStays>>['items'][number];
type GuestRow = Awaited<ReturnType<typeof listGuests>>['items'][number];
type CustomerRow = Awaited<ReturnType<typeof listCustomers>>['items'][number];
type PasswordRow = Awaited<ReturnType<typeof listPasswords>>['items'][number];
type RecordRow = Awaited<ReturnType<typeof listRecordsByPerson>>['items'][number];
type AuditRow = Awaited<ReturnType<typeof listAuditLog>>['items'][number];
type OrderRow = Awaited<ReturnType<typeof listOrders>>['items'][number];

/** A trial balance's line named in the export's language (an account, a way of paying, a shift of it, the total, the checks' result). */
function trialBalanceLabel(r: TrialBalanceLine, s: CellScope): string {
  const way = 'method' in r ? s.t(`orders.methods.${r.method}`) : '';
  switch (r.kind) {
    case 'account':
      return s.t(`journal.accounts.${r.account}`);
    case 'way':
      return s.t('journal.way', { way });
    case 'shift':
      return r.cashier === null ? s.t('journal.noShiftOf', { way }) : s.t('journal.file.shift', { way, cashier: r.cashier });
    case 'others':
      return s.t('journal.file.others', { way });
    case 'total':
      return s.t('journal.total');
    case 'result':
      if (r.ties) return s.t('journal.file.ties');
      return [
        s.t('journal.file.doesNotTie'),
        ...(r.balanced ? [] : [s.t('journal.file.balancedOff')]),
        ...(r.foliosOff > 0 ? [s.t('journal.file.foliosOff', { number: r.foliosOff })] : []),
        ...(r.customersOff > 0 ? [s.t('journal.file.customersOff', { number: r.customersOff })] : []),
      ].join(' ');
  }
}

const figure = (r: TrialBalanceLine, key: 'opening' | 'debits' | 'credits' | 'closing') => (r.kind === 'result' ? null : r[key]);

/** Our name of a line's account (its way's for money), where the hotel gave no code: `guest`, `money.cash`. */
const ourAccountName = (r: GeneralLedgerLine) => (r.account === 'money' && r.method ? `money.${r.method}` : r.account);

const guestNames = (stay: StayRow) =>
  [...stay.guests]
    .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary))
    .map((g) => g.name)
    .join(', ');

export const EXPORT_REGISTRY: Record<TExportList, ExportListDefinition> = {
  rooms: defineList<RoomRow>({
    title: 'menu.roomBoard',
    read: (ctx, filters, page, pageSize) => listRooms(ctx, { ...filters, page, pageSize }),
    columns: [
      { header: 'frontDesk.board.room', kind: 'text', width: 14, value: (r) => r.name },
      { header: 'frontDesk.board.group', kind: 'text', width: 14, value: (r, s) => r.groupName ?? s.t('frontDesk.board.noGroup') },
      { header: 'frontDesk.board.status', kind: 'text', width: 12, value: (r, s) => s.code('roomStatus', r.status) },
      { header: 'frontDesk.board.guest', kind: 'text', width: 18, value: (r) => r.currentStay?.guestName },
      { header: 'frontDesk.board.checkInAt', kind: 'time', value: (r) => r.currentStay?.checkInAt },
      { header: 'frontDesk.board.expectedCheckOut', kind: 'time', value: (r) => r.currentStay?.expectedCheckOutAt },
      { header: 'frontDesk.board.lockPower', kind: 'number', width: 10, value: (r) => r.lock?.battery ?? r.lockPower },
      { header: 'stays.price', kind: 'money', value: (r) => r.usualPrice },
    ],
  }),
  stays: defineList<StayRow>({
    title: 'menu.stays',
    read: (ctx, filters, page, pageSize) => listStays(ctx, { ...filters, page, pageSize }),
    keyset: {
      count: (ctx, filters) => countStays(ctx, filters),
      after: (ctx, filters, after, limit) => listStaysAfter(ctx, filters, after, limit),
      cursor: (r) => cursorOf(r.checkInAt, r.id),
    },
    columns: [
      { header: 'stays.room', kind: 'text', width: 12, value: (r) => r.roomName },
      { header: 'stays.guests', kind: 'text', width: 24, value: (r) => guestNames(r) },
      { header: 'stays.state', kind: 'text', width: 12, value: (r, s) => s.code('stayState', r.state) },
      { header: 'stays.checkIn', kind: 'time', value: (r) => r.checkInAt },
      { header: 'stays.expectedCheckOut', kind: 'time', value: (r) => r.expectedCheckOutAt },
      { header: 'export.columns.checkedOutAt', kind: 'time', value: (r) => r.checkedOutAt },
      { header: 'stays.price', kind: 'money', value: (r) => r.priceAmount },
      { header: 'stays.deposit', kind: 'money', value: (r) => r.depositAmount },
      // The visit's bill: what the guest owes (negative: due back), and whether it is settled.
      { header: 'stays.balanceDue', kind: 'money', value: (r) => r.bill.owed - r.bill.dueBack },
      { header: 'stays.bill', kind: 'text', width: 12, value: (r, s) => s.code('orders.billStates', r.bill.state) },
    ],
  }),
  guests: defineList<GuestRow>({
    title: 'export.lists.guests',
    read: (ctx, filters, page, pageSize) => listGuests(ctx, { ...filters, page, pageSize }),
    columns: [
      { header: 'export.columns.guestName', kind: 'text', width: 18, value: (r) => r.name },
      { header: 'stays.gender', kind: 'text', width: 10, value: (r, s) => s.code('stays.genders', r.gender) },
      { header: 'customer.mobile', kind: 'text', width: 16, value: (r) => r.mobile },
      { header: 'export.columns.idNumber', kind: 'text', width: 20, value: (r) => r.idNumber },
      { header: 'stays.room', kind: 'text', width: 12, value: (r) => r.roomName },
      { header: 'stays.state', kind: 'text', width: 12, value: (r, s) => s.code('stayState', r.state) },
      { header: 'stays.checkIn', kind: 'time', value: (r) => r.checkInAt },
      { header: 'stays.expectedCheckOut', kind: 'time', value: (r) => r.expectedCheckOutAt },
    ],
  }),
  customers: defineList<CustomerRow>({
    title: 'menu.customerList',
    read: (ctx, filters, page, pageSize) => listCustomers(ctx, { ...filters, page, pageSize }),
    columns: [
      { header: 'customer.id', kind: 'number', width: 8, value: (r) => r.id },
      { header: 'customer.nickname', kind: 'text', width: 18, value: (r) => r.nickname },
      { header: 'customer.mobile', kind: 'text', width: 16, value: (r) => r.mobile },
      { header: 'customer.email', kind: 'text', width: 24, value: (r) => r.email },
      { header: 'customer.registeredAt', kind: 'time', value: (r) => r.registeredAt },
      { header: 'customer.state', kind: 'text', width: 10, value: (r, s) => s.t(r.frozen ? 'customer.stateFrozen' : 'customer.stateActive') },
    ],
  }),
  passwords: defineList<PasswordRow>({
    title: 'export.lists.passwords',
    read: (ctx, filters, page, pageSize) => listPasswords(ctx, { ...filters, page, pageSize }),
    columns: [
      { header: 'stays.room', kind: 'text', width: 12, value: (r) => r.roomName },
      { header: 'credentials.columns.holder', kind: 'text', width: 18, value: (r) => r.holderName },
      { header: 'credentials.columns.kind', kind: 'text', width: 14, value: (r, s) => s.code('credentials.kinds', r.kind) },
      { header: 'credentials.columns.code', kind: 'text', width: 12, value: (r) => r.code },
      { header: 'export.columns.validFrom', kind: 'time', value: (r) => r.validFrom },
      { header: 'export.columns.validUntil', kind: 'time', value: (r) => r.validUntil },
      { header: 'credentials.columns.state', kind: 'text', width: 18, value: (r, s) => s.code('credentials.states', r.deliveryState) },
    ],
  }),
  unlockRecords: defineList<RecordRow>({
    title: 'menu.unlockRecords',
    read: (ctx, filters, page, pageSize) => listRecordsByPerson(ctx, { ...filters, page, pageSize }),
    keyset: {
      count: (ctx, filters, cap) => countRecordsByPerson(ctx, filters, cap),
      after: (ctx, filters, after, limit) => listRecordsByPersonAfter(ctx, filters, after, limit),
      cursor: (r) => cursorOf(r.occurredAt, r.id),
    },
    columns: [
      { header: 'frontDesk.detail.unlockTime', kind: 'time', value: (r) => r.occurredAt },
      { header: 'stays.room', kind: 'text', width: 12, value: (r) => r.roomName },
      { header: 'unlockRecords.person', kind: 'text', width: 18, value: (r) => r.operator },
      { header: 'frontDesk.detail.unlockStyle', kind: 'text', width: 12, value: (r, s) => s.code('frontDesk.detail.unlockStyles', r.style) },
      { header: 'unlockRecords.result', kind: 'text', width: 10, value: (r, s) => s.t(r.success ? 'unlockRecords.succeeded' : 'unlockRecords.failed') },
      { header: 'frontDesk.detail.unlockContent', kind: 'text', width: 20, value: (r, s) => s.code('frontDesk.detail.unlockEvents', r.event) },
      { header: 'frontDesk.detail.unlockSource', kind: 'text', width: 12, value: (r, s) => s.code('frontDesk.detail.unlockSources', r.source) },
    ],
  }),
  auditLog: defineList<AuditRow>({
    title: 'menu.auditLog',
    read: (ctx, filters, page, pageSize) => listAuditLog(ctx, { ...filters, page, pageSize }, { isolate: false }),
    keyset: {
      count: (ctx, filters, cap) => countAuditLog(ctx, filters, cap),
      after: (ctx, filters, after, limit) => listAuditLogAfter(ctx, filters, after, limit),
      cursor: (r) => cursorOf(r.at, r.id),
    },
    columns: [
      { header: 'auditLog.columns.time', kind: 'time', value: (r) => r.at },
      // Who, what and on what in words of the export's language, as the viewer lists them (audit-text.ts).
      { header: 'auditLog.columns.actor', kind: 'text', width: 24, value: (r, s) => r.actor.name ?? s.code('auditLog.actorTypes', r.actor.type) },
      { header: 'auditLog.columns.action', kind: 'text', width: 26, value: (r) => r.actionLabel },
      { header: 'auditLog.columns.target', kind: 'text', width: 30, value: (r) => r.target.label },
      { header: 'auditLog.columns.channel', kind: 'text', width: 16, value: (r, s) => s.code('auditLog.channels', r.channel) },
      { header: 'auditLog.columns.address', kind: 'text', width: 16, value: (r) => r.ip },
    ],
  }),
  orders: defineList<OrderRow>({
    title: 'menu.orders',
    read: (ctx, filters, page, pageSize) => listOrders(ctx, { ...filters, page, pageSize }),
    keyset: {
      count: (ctx, filters) => countOrders(ctx, filters),
      after: (ctx, filters, after, limit) => listOrdersAfter(ctx, filters, after, limit),
      cursor: (r) => cursorOf(r.createdAt, r.id),
    },
    columns: [
      { header: 'orders.columns.time', kind: 'time', value: (r) => r.createdAt },
      { header: 'stays.room', kind: 'text', width: 12, value: (r) => r.roomName },
      { header: 'customer.nickname', kind: 'text', width: 16, value: (r) => r.customerName },
      { header: 'orders.columns.kind', kind: 'text', width: 14, value: (r, s) => s.code('orders.kinds', r.kind) },
      { header: 'orders.columns.method', kind: 'text', width: 14, value: (r, s) => s.code('orders.methods', r.method) },
      { header: 'orders.columns.amount', kind: 'money', value: (r) => r.amount },
      { header: 'orders.columns.note', kind: 'text', width: 24, value: (r) => r.note },
      { header: 'orders.columns.operator', kind: 'text', width: 16, value: (r) => r.operator?.nickname },
    ],
  }),
  // The journal's (docs/journal.md): a day's trial balance, through order.trialBalance.
  trialBalance: defineList<TrialBalanceLine>({
    title: 'journal.file.trialBalance',
    read: async (ctx, filters, page, pageSize) => {
      const lines = await trialBalanceLines(ctx, filters);
      return { items: lines.slice((page - 1) * pageSize, page * pageSize), total: lines.length };
    },
    columns: [
      { header: 'journal.file.columns.account', kind: 'text', width: 34, value: (r, s) => trialBalanceLabel(r, s) },
      { header: 'journal.file.columns.code', kind: 'text', width: 14, value: (r) => ('code' in r ? r.code : null) },
      { header: 'journal.file.columns.shiftOpenedAt', kind: 'time', value: (r) => (r.kind === 'shift' ? r.openedAt : null) },
      { header: 'journal.file.columns.opening', kind: 'money', width: 18, value: (r) => figure(r, 'opening') },
      { header: 'journal.file.columns.debits', kind: 'money', width: 16, value: (r) => figure(r, 'debits') },
      { header: 'journal.file.columns.credits', kind: 'money', width: 16, value: (r) => (r.kind === 'result' ? null : -r.credits) },
      { header: 'journal.file.columns.closing', kind: 'money', width: 18, value: (r) => figure(r, 'closing') },
    ],
  }),
  // The journal lines of a range of days under the hotel's codes; a line of no code under our account's name, counted.
  generalLedger: defineList<GeneralLedgerLine>({
    title: 'journal.file.generalLedger',
    read: (ctx, filters, page, pageSize) => generalLedgerPage(ctx, filters, page, pageSize),
    keyset: {
      count: (ctx, filters, cap) => countGeneralLedger(ctx, filters, cap),
      after: (ctx, filters, after, limit) => generalLedgerAfter(ctx, filters, after, limit),
      cursor: (r) => ({ at: r.businessDate, id: r.entryId }),
    },
    tally: (r) => (r.code === null ? 'unmapped' : null),
    columns: [
      { header: 'journal.file.columns.date', kind: 'text', width: 12, value: (r) => r.businessDate },
      { header: 'journal.file.columns.entry', kind: 'number', width: 10, value: (r) => r.entryId },
      { header: 'journal.file.columns.postedAt', kind: 'time', value: (r) => r.postedAt },
      { header: 'journal.file.columns.code', kind: 'text', width: 16, value: (r) => r.code ?? ourAccountName(r) },
      {
        header: 'journal.file.columns.account',
        kind: 'text',
        width: 24,
        value: (r, s) => (r.method ? s.t('journal.way', { way: s.t(`orders.methods.${r.method}`) }) : s.t(`journal.accounts.${r.account}`)),
      },
      { header: 'journal.file.columns.debit', kind: 'money', width: 14, value: (r) => (r.amount > 0 ? r.amount : null) },
      { header: 'journal.file.columns.credit', kind: 'money', width: 14, value: (r) => (r.amount < 0 ? -r.amount : null) },
      {
        header: 'journal.file.columns.what',
        kind: 'text',
        width: 20,
        value: (r, s) => (r.kind ? s.code('orders.kinds', r.kind) : s.code('journal.sources', r.source)),
      },
      { header: 'stays.room', kind: 'text', width: 10, value: (r) => r.roomName },
      { header: 'journal.file.columns.customer', kind: 'text', width: 16, value: (r) => r.customerName },
      { header: 'journal.file.columns.cashier', kind: 'text', width: 16, value: (r) => r.cashier },
      { header: 'journal.file.columns.serviceDate', kind: 'text', width: 12, value: (r) => r.serviceDate },
      { header: 'orders.columns.note', kind: 'text', width: 24, value: (r) => r.note },
    ],
  }),
};
