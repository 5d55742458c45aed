import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { usePhone } from '@/lib/use-phone';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { BillInvoices } from '../../invoices/bill-invoices';
import { CorrectEntryDialog } from './correct-entry-dialog';
import type { OrderEntryDto } from './order-helpers';
import { isActiveStay, type StayDto } from '../dialogs/stay-helpers';
import { RecordMoneyDialog, type RecordKind } from './record-money-dialog';
import { SettleCheckOutDialog } from './settle-check-out-dialog';
import { stayQueries } from '../api';

/**
 * A stay's bill (its folio, docs/orders.md) on the room page and the guest's page: the entries,
 * newest last, what the guest owes or is due back and the deposit held. While the stay is active
 * the front desk records a deposit, a payment or a charge here; a bill left owing at check-out
 * takes the payment of what is owed (the last one closes it); a bill a check-out left open (money
 * due back, after a legacy client's check-out) is settled here. Balances come from the server
 * (the sum of the entries). On a phone (issue 26 §3) the entries keep two columns, the kind and the
 * amount, and the other facts (time, way of paying, note, clerk) go on a small line under the kind:
 * the amount is in sight without a sideways scroll.
 */
export function StayFolio({ stay, timeZone }: { stay: StayDto; timeZone: string }) {
  const { t } = useTranslation();
  const stayId = stay.id;
  const roomName = stay.roomName;
  const isActive = isActiveStay(stay.state);
  const query = useQuery(stayQueries.folio(stayId));
  const [recording, setRecording] = useState<RecordKind | null>(null);
  const [correcting, setCorrecting] = useState<OrderEntryDto | null>(null);
  const [settling, setSettling] = useState(false);
  const folio = query.data;
  const kinds: readonly RecordKind[] =
    !folio || folio.state === 'settled' ? [] : folio.state === 'owing' ? ['payment'] : isActive ? ['deposit', 'payment', 'charge'] : [];
  const settleable = folio && !isActive && folio.state === 'open' && folio.preview ? { ...folio, preview: folio.preview } : null;
  // Corrections need order.manage, and an open bill (a settled one is closed for good).
  const canCorrect = hasPermission(useUserInfo(), 'order.manage') && folio?.state === 'open';
  /** What checking out now would leave, the deposit refunded (the room charge as due at this moment). */
  const now = folio?.preview?.ifDepositRefunded ?? null;
  const isPhone = usePhone();

  return (
    <section className="grid gap-2" data-testid="stay-folio" data-state={folio?.state} data-balance={folio?.balance} data-deposit-held={folio?.depositHeld}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{t('orders.folio.title')}</h3>
        {folio && <Badge variant={folio.state === 'settled' ? 'secondary' : 'outline'}>{t(`orders.folio.${folio.state}`)}</Badge>}
        {(kinds.length > 0 || settleable) && (
          <div className="ms-auto flex flex-wrap gap-2">
            {/* A bill left owing takes only the payment of what is owed. */}
            {kinds.map((kind) => (
              <Button
                key={kind}
                size="sm"
                variant={folio?.state === 'owing' ? 'default' : 'outline'}
                onClick={() => setRecording(kind)}
                data-testid={`folio-record-${kind}`}
                data-shortcut={kind === 'payment' ? 'record-payment' : undefined}
              >
                {t(folio?.state === 'owing' ? 'orders.folio.collect' : `orders.folio.record.${kind}`)}
              </Button>
            ))}
            {settleable && (
              <Button size="sm" onClick={() => setSettling(true)} data-testid="folio-settle">
                {t('orders.settle.action')}
              </Button>
            )}
          </div>
        )}
      </div>
      {!folio && query.isError ? (
        <LoadError query={failedQuery(query)} what={t('orders.folio.loadWhat')} className="py-4" />
      ) : !folio ? (
        <Skeleton className="h-16 w-full" />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground text-xs">
                {t(folio.balance < 0 ? 'orders.folio.owed' : folio.balance > 0 ? 'orders.folio.dueBack' : 'orders.folio.balance')}
              </dt>
              <dd className={folio.balance < 0 ? 'text-destructive font-semibold tabular-nums' : 'font-semibold tabular-nums'} data-testid="folio-balance">
                {formatMoney(Math.abs(folio.balance), folio.currency)}
              </dd>
            </div>
            {now && (
              <div>
                {/* The room charge is posted as the stay goes; an early departure would credit the nights not used. */}
                <dt className="text-muted-foreground text-xs">{t(now.owed > 0 ? 'orders.folio.owedNow' : 'orders.folio.dueBackNow')}</dt>
                <dd
                  className={now.owed > 0 ? 'text-destructive font-semibold tabular-nums' : 'font-semibold tabular-nums'}
                  data-testid="folio-if-settled-now"
                  data-owed={now.owed}
                  data-refunded={now.refunded}
                >
                  {formatMoney(now.owed > 0 ? now.owed : now.refunded, folio.currency)}
                </dd>
              </div>
            )}
            <div>
              <dt className="text-muted-foreground text-xs">{t('orders.folio.depositHeld')}</dt>
              <dd className="font-medium tabular-nums" data-testid="folio-deposit-held">
                {formatMoney(folio.depositHeld, folio.currency)}
              </dd>
            </div>
          </dl>
          {folio.owing && (
            <p
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
              data-testid="folio-owing"
              data-reason={folio.owing.reason}
            >
              {t('orders.folio.owingSince', {
                amount: formatMoney(folio.owing.amount, folio.currency),
                reason: t(`orders.owingReasons.${folio.owing.reason}`),
              })}
              {folio.owing.note && ` (${folio.owing.note})`}
            </p>
          )}
          {folio.entries.length === 0 ? (
            <p className="text-muted-foreground text-sm">{t('orders.folio.empty')}</p>
          ) : (
            <div className="overflow-x-auto">
              <Table data-testid="folio-entries" data-layout={isPhone ? 'phone' : 'table'}>
                <TableHeader>
                  <TableRow>
                    {!isPhone && <TableHead>{t('orders.columns.time')}</TableHead>}
                    <TableHead>{t('orders.columns.kind')}</TableHead>
                    {!isPhone && (
                      <>
                        <TableHead>{t('orders.columns.method')}</TableHead>
                        <TableHead>{t('orders.columns.note')}</TableHead>
                        <TableHead>{t('orders.columns.operator')}</TableHead>
                      </>
                    )}
                    <TableHead className="text-end">{t('orders.columns.amount')}</TableHead>
                    {canCorrect && (
                      <TableHead>
                        <span className="sr-only">{t('common.actions')}</span>
                      </TableHead>
                    )}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {folio.entries.map((entry) => (
                    <TableRow
                      key={entry.id}
                      data-testid="folio-entry"
                      data-kind={entry.kind}
                      data-amount={entry.amount}
                      data-corrected={entry.correctedById !== null || undefined}
                      data-tax={entry.tax || undefined}
                    >
                      {!isPhone && <TableCell className="whitespace-nowrap tabular-nums">{formatShortDateTime(entry.createdAt, timeZone)}</TableCell>}
                      <TableCell className={isPhone ? 'align-top whitespace-normal' : undefined}>
                        {entry.tax ? t('orders.taxLine') : t(`orders.kinds.${entry.kind}`)}
                        {entry.correctedById !== null && (
                          <Badge variant="outline" className="ms-2">
                            {t('orders.correct.corrected')}
                          </Badge>
                        )}
                        {isPhone && (
                          // The columns a phone leaves out, under the kind: when, how it was paid, the note, who recorded it.
                          <span className="text-muted-foreground mt-0.5 block text-xs [overflow-wrap:anywhere]" data-testid="folio-entry-facts">
                            {[
                              formatShortDateTime(entry.createdAt, timeZone),
                              entry.method ? t(`orders.methods.${entry.method}`) : null,
                              entry.note || null,
                              entry.operator?.nickname ?? null,
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                          </span>
                        )}
                      </TableCell>
                      {!isPhone && (
                        <>
                          <TableCell>{entry.method ? t(`orders.methods.${entry.method}`) : '—'}</TableCell>
                          <TableCell className="max-w-60 truncate" title={entry.note}>
                            {entry.note || '—'}
                          </TableCell>
                          <TableCell>{entry.operator?.nickname ?? '—'}</TableCell>
                        </>
                      )}
                      <TableCell
                        className={cn('text-end tabular-nums', isPhone && 'align-top', entry.correctedById !== null && 'text-muted-foreground line-through')}
                        dir="ltr"
                        data-testid="folio-entry-amount"
                      >
                        {formatMoney(entry.amount, entry.currency)}
                        {entry.taxIncluded !== null && (
                          <span className="text-muted-foreground block text-xs" data-testid="folio-entry-tax">
                            {t('orders.taxIncluded', { amount: formatMoney(Math.abs(entry.taxIncluded), entry.currency) })}
                          </span>
                        )}
                      </TableCell>
                      {canCorrect && (
                        <TableCell className={cn('text-end', isPhone && 'align-top')}>
                          {/* A room charge follows the stay's price: the stay is changed, not its charge; a tax follows what it is levied on. */}
                          {entry.kind !== 'correction' && entry.kind !== 'room_charge' && !entry.tax && entry.correctedById === null && (
                            <Button
                              size="sm"
                              variant="ghost"
                              onClick={() => setCorrecting(entry)}
                              aria-label={t('orders.correct.actionFor', {
                                kind: t(`orders.kinds.${entry.kind}`),
                                amount: formatMoney(entry.amount, entry.currency),
                              })}
                              data-testid="folio-correct"
                            >
                              {t('orders.correct.action')}
                            </Button>
                          )}
                        </TableCell>
                      )}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </>
      )}
      {/* A final bill is invoiced (docs/invoices.md). */}
      {folio && folio.state !== 'open' && <BillInvoices stayId={stayId} timeZone={timeZone} />}
      <CorrectEntryDialog entry={correcting} timeZone={timeZone} onClose={() => setCorrecting(null)} />
      {folio && (
        <RecordMoneyDialog
          kind={recording}
          stayId={stayId}
          roomName={roomName}
          currency={folio.currency}
          owed={folio.owed}
          onClose={() => setRecording(null)}
        />
      )}
      {settleable && <SettleCheckOutDialog stay={stay} folio={settleable} open={settling} onOpenChange={setSettling} />}
    </section>
  );
}

/** The stay's bill on the guest's page (for the front desk): collected there once the guest has left owing. */
export function GuestStayBill({ stay }: { stay: StayDto }) {
  const user = useUserInfo();
  if (!hasPermission(user, 'stay.manage')) return null;
  return (
    <Card className="gap-3 px-4 py-3 lg:col-span-2" data-testid="guest-stay-bill">
      <StayFolio stay={stay} timeZone={user?.hotel.timeZone ?? 'UTC'} />
    </Card>
  );
}
