import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceLabel } from '@/lib/device';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { auditDiff, changedFirst, showJson, type DiffRow, type JsonValue } from './audit-diff';
import { ActionName, ActorName, ChannelBadge, TargetName, type AuditItem } from './audit-labels';

const CHANGE_STYLE: Record<DiffRow['change'], string> = {
  added: 'bg-success/10',
  removed: 'bg-destructive/10',
  changed: 'bg-warning/15',
  same: 'text-muted-foreground',
};

interface AuditEntryDialogProps {
  /** The entry shown; kept while the dialog closes. */
  entry: AuditItem | null;
  open: boolean;
  timeZone: string;
  onClose(): void;
  /** Where the focus goes back when the dialog closes (the row's button that opened it). */
  returnFocusTo?: HTMLElement | null;
}

/**
 * One audit entry: who, when, what, through which face and from where, and its before and after
 * side by side, a row per field, each marked added, removed, changed or unchanged in words (not
 * only in colour); the fields that changed come first, the unchanged ones on request. Escape, the
 * close buttons or a click outside close it, and the focus goes back to the row.
 */
export function AuditEntryDialog({ entry, open, timeZone, onClose, returnFocusTo }: AuditEntryDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open && entry !== null} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent
        className="sm:max-w-3xl"
        closeLabel={t('common.close')}
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.isConnected) return;
          event.preventDefault();
          returnFocusTo.focus();
        }}
        data-testid="audit-entry"
      >
        {entry && <EntryBody key={entry.id} entry={entry} timeZone={timeZone} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** A value written as it is, in its own direction inside a cell or a line that follows the page's. */
const Value = ({ children, mono = false, testId }: { children: ReactNode; mono?: boolean; testId?: string }) => (
  <span dir="auto" className={cn('break-all whitespace-pre-wrap', mono && 'font-mono text-xs')} data-testid={testId}>
    {children}
  </span>
);

function EntryBody({ entry, timeZone, onClose }: { entry: AuditItem; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const [isShowingSame, setIsShowingSame] = useState(false);
  const { changed, same } = changedFirst(auditDiff(entry.before as JsonValue, entry.after as JsonValue));
  const rows = isShowingSame ? [...changed, ...same] : changed;
  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('auditLog.entry.title')}</DialogTitle>
        <DialogDescription>
          <time dateTime={entry.at}>{formatDateTime(entry.at, timeZone)}</time>
        </DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">{t('auditLog.columns.actor')}</dt>
        <dd>
          <ActorName actor={entry.actor} />
        </dd>
        <dt className="text-muted-foreground">{t('auditLog.columns.action')}</dt>
        <dd>
          <ActionName action={entry.action} label={entry.actionLabel} />
        </dd>
        <dt className="text-muted-foreground">{t('auditLog.entry.actionCode')}</dt>
        <dd>
          <Value mono testId="audit-action-code">
            {entry.action}
          </Value>
        </dd>
        <dt className="text-muted-foreground">{t('auditLog.columns.target')}</dt>
        <dd>
          <TargetName target={entry.target} />
        </dd>
        <dt className="text-muted-foreground">{t('auditLog.columns.channel')}</dt>
        <dd>
          <ChannelBadge channel={entry.channel} />
        </dd>
        <dt className="text-muted-foreground">{t('auditLog.columns.address')}</dt>
        <dd>
          <Value mono>{entry.ip ?? '—'}</Value>
        </dd>
        {entry.userAgent && (
          <>
            <dt className="text-muted-foreground">{t('auditLog.entry.device')}</dt>
            <dd className="text-xs" data-testid="audit-device">
              <bdi>{deviceLabel(entry.device, t)}</bdi>
              <div className="text-muted-foreground mt-0.5">
                <Value>{entry.userAgent}</Value>
              </div>
            </dd>
          </>
        )}
        {entry.requestId && (
          <>
            <dt className="text-muted-foreground">{t('auditLog.entry.request')}</dt>
            <dd>
              <Value mono>{entry.requestId}</Value>
            </dd>
          </>
        )}
      </dl>
      {changed.length + same.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="audit-no-changes">
          {t('auditLog.entry.noChanges')}
        </p>
      ) : (
        <div className="space-y-2">
          {rows.length > 0 && (
            <div className="overflow-x-auto rounded-md border">
              <Table data-testid="audit-diff" aria-label={t('auditLog.entry.changes')}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('auditLog.entry.field')}</TableHead>
                    <TableHead>{t('auditLog.entry.before')}</TableHead>
                    <TableHead>{t('auditLog.entry.after')}</TableHead>
                    <TableHead>
                      <span className="sr-only">{t('auditLog.entry.change')}</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((row, i) => (
                    <TableRow
                      key={row.field ?? i}
                      className={CHANGE_STYLE[row.change]}
                      data-testid={`audit-diff-${row.field ?? 'value'}`}
                      data-change={row.change}
                    >
                      <TableCell>
                        <Value mono>{row.field ?? '—'}</Value>
                      </TableCell>
                      <TableCell className="max-w-64 whitespace-normal">
                        <Value mono testId="audit-before">
                          {showJson(row.before)}
                        </Value>
                      </TableCell>
                      <TableCell className="max-w-64 whitespace-normal">
                        <Value mono testId="audit-after">
                          {showJson(row.after)}
                        </Value>
                      </TableCell>
                      <TableCell className="text-xs whitespace-nowrap">{t(`auditLog.entry.marks.${row.change}`)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
          {same.length > 0 && (
            <Button
              variant="link"
              size="sm"
              className="h-auto px-0"
              aria-expanded={isShowingSame}
              onClick={() => setIsShowingSame((v) => !v)}
              data-testid="audit-show-same"
            >
              {isShowingSame ? t('auditLog.entry.hideSame') : t('auditLog.entry.showSame', { number: formatNumber(same.length) })}
            </Button>
          )}
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogFooter>
    </>
  );
}
