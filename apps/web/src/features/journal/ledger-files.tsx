import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BookKey } from 'lucide-react';
import { isLocalDate } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { ExportButton } from '@/components/export-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { useHotelSettings } from '@/lib/hotel-settings';
import { periodErrorOf } from '@/lib/use-date-draft';
import { AccountCodesDialog } from './account-codes-dialog';

/** The files the journal's exports are written as. */
export const JOURNAL_FORMATS = ['xlsx', 'csv'] as const;

/**
 * The general ledger for the hotel's accounting (docs/journal.md "The general-ledger export"): the
 * journal lines of a range of business dates (the page's day unless changed), under the hotel's
 * chart-of-accounts codes, as .xlsx or .csv through the export dialog (which says how many lines
 * had no code); and the codes themselves.
 */
export function LedgerFiles({ date }: { date: string }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [range, setRange] = useState({ from: date, to: date, of: date });
  const [isEditing, setIsEditing] = useState(false);
  // Another day on the page starts the range there again.
  if (range.of !== date) setRange({ from: date, to: date, of: date });
  const error = periodErrorOf(range.from, range.to);
  const canExport = error === null && isLocalDate(range.from) && isLocalDate(range.to);
  return (
    <Card className="gap-3 p-4" aria-labelledby="tb-files-title" data-testid="tb-files">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="tb-files-title" className="text-lg font-semibold">
          {t('journal.files.title')}
        </h2>
        <Button variant="outline" onClick={() => setIsEditing(true)} data-testid="tb-codes-open">
          <BookKey aria-hidden />
          {t('journal.codes.open')}
        </Button>
      </div>
      <p className="text-muted-foreground text-sm">{t('journal.files.description')}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="tb-gl-from">{t('journal.files.from')}</Label>
          <DateTimeField
            id="tb-gl-from"
            withTime={false}
            timeZone={timeZone}
            className="w-44"
            value={range.from}
            onChange={(from) => setRange((r) => ({ ...r, from }))}
            invalid={error !== null}
            describedBy={error ? 'tb-gl-error' : undefined}
            data-testid="tb-gl-from"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="tb-gl-to">{t('journal.files.to')}</Label>
          <DateTimeField
            id="tb-gl-to"
            withTime={false}
            timeZone={timeZone}
            className="w-44"
            value={range.to}
            onChange={(to) => setRange((r) => ({ ...r, to }))}
            invalid={error !== null}
            describedBy={error ? 'tb-gl-error' : undefined}
            data-testid="tb-gl-to"
          />
        </div>
        {canExport ? (
          <ExportButton
            list="generalLedger"
            filters={{ from: range.from, to: range.to }}
            page={1}
            pageSize={100}
            total={0}
            whole
            formats={JOURNAL_FORMATS}
            what={t('journal.files.generalLedger')}
            label={t('journal.files.export')}
            testId="tb-gl-export"
          />
        ) : (
          <Button variant="outline" disabled data-testid="tb-gl-export">
            {t('journal.files.export')}
          </Button>
        )}
      </div>
      {error && (
        <p id="tb-gl-error" role="alert" className="text-destructive text-sm">
          {t(error)}
        </p>
      )}
      <AccountCodesDialog open={isEditing} onClose={() => setIsEditing(false)} />
    </Card>
  );
}
