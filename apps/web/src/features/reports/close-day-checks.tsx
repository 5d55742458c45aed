import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatDate, formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useUserInfo } from '@/lib/user-info';
import { reportQueries } from './api';

type Checks = RouterOutputs['order']['auditChecks'];

/**
 * What the night audit finds before a day is closed (docs/reports.md "The day close"), in the close's
 * dialog: whether the books tie, the arrivals that did not come (which the close ends as no-shows, and
 * the fee the hotel's policy charges), the guests still in house past their departure, the cashier
 * shifts still open, and the bills of reservations that never began still holding or owing money. The
 * close proceeds with them; they say what it will do and what is left for the desk.
 */
export function CloseDayChecks({ date }: { date: string }) {
  const { t } = useTranslation();
  const checks = useQuery(reportQueries.auditChecks(date));
  if (checks.isPending) {
    return (
      <div className="space-y-2" data-testid="close-checks-loading" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="bg-muted h-5 w-full animate-pulse rounded" />
        ))}
      </div>
    );
  }
  if (checks.isError) return <p className="text-destructive text-sm">{t('reports.close.checks.failed')}</p>;
  return <ChecksList checks={checks.data} />;
}

function ChecksList({ checks }: { checks: Checks }) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const currency = user?.hotel.currency ?? 'CNY';
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const money = (minor: number) => formatMoney(minor, currency);
  const who = (s: { roomName: string; guestName: string }) => t('reports.close.checks.who', { room: s.roomName, guest: s.guestName || '—' });
  const nothing = !checks.arrivals.length && !checks.departures.length && !checks.openShifts.length && !checks.bills.length;
  return (
    <div className="max-h-[45vh] space-y-3 overflow-y-auto text-sm" data-testid="close-checks">
      <p className={checks.ties ? 'text-muted-foreground' : 'text-destructive font-medium'} data-testid="close-checks-books">
        {checks.ties ? t('reports.close.checks.ties') : t('reports.close.checks.untied', { count: checks.foliosOff })}{' '}
        {!checks.ties && (
          <Link to="/order/trialBalance" search={{ date: checks.date }} className="underline">
            {t('reports.close.checks.openTrialBalance')}
          </Link>
        )}
      </p>
      {nothing && <p className="text-muted-foreground">{t('reports.close.checks.nothing')}</p>}
      <Section title={t('reports.close.checks.arrivals', { count: checks.arrivals.length })} testId="close-checks-arrivals">
        {checks.arrivals.map((a) => (
          <li key={a.stayId}>
            {who(a)}:{' '}
            {a.due
              ? a.fee > 0
                ? t('reports.close.checks.noShowCharged', { fee: money(a.fee) })
                : t('reports.close.checks.noShowReleased')
              : t('reports.close.checks.notYet', { at: formatShortDateTime(a.noShowAt, timeZone) })}
          </li>
        ))}
      </Section>
      <Section title={t('reports.close.checks.departures', { count: checks.departures.length })} testId="close-checks-departures">
        {checks.departures.map((d) => (
          <li key={d.stayId}>
            {who(d)}: {t('reports.close.checks.dueOut', { at: formatShortDateTime(d.expectedCheckOutAt, timeZone) })}
          </li>
        ))}
      </Section>
      <Section title={t('reports.close.checks.shifts', { count: checks.openShifts.length })} testId="close-checks-shifts">
        {checks.openShifts.map((s) => (
          <li key={s.id}>
            {t('reports.close.checks.shiftOpen', { name: s.openedBy || '—', at: formatShortDateTime(s.openedAt, timeZone), float: money(s.openingFloat) })}
          </li>
        ))}
      </Section>
      <Section title={t('reports.close.checks.bills', { count: checks.bills.length })} testId="close-checks-bills">
        {checks.bills.map((b) => (
          <li key={b.folioId}>
            {who(b)}:{' '}
            {b.balance > 0 ? t('reports.close.checks.holds', { amount: money(b.balance) }) : t('reports.close.checks.owes', { amount: money(-b.balance) })}
          </li>
        ))}
      </Section>
      <p className="text-muted-foreground">
        {checks.noShowPolicy === 'charge_first_night' ? t('reports.close.checks.policyCharge') : t('reports.close.checks.policyRelease')}{' '}
        {t('reports.close.checks.businessDate', { date: formatDate(checks.businessDate) })}
      </p>
    </div>
  );
}

function Section({ title, testId, children }: { title: string; testId: string; children: React.ReactNode[] }) {
  if (children.length === 0) return null;
  return (
    <section data-testid={testId}>
      <h3 className="font-medium">{title}</h3>
      <ul className="text-muted-foreground list-disc space-y-0.5 ps-5">{children}</ul>
    </section>
  );
}
