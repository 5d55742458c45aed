import { FileSearch } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import type { AuditSearch } from './api';
import { ActionName, ActorName, ChannelBadge, TargetName, type AuditItem } from './audit-labels';

/**
 * The log's entries, newest first: when, who, the action (pressed: only that action), the target
 * (pressed: its history), the face, the address, and the entry's details.
 */
export function AuditTable({
  items,
  timeZone,
  setSearch,
  onShow,
}: {
  items: AuditItem[];
  timeZone: string;
  setSearch(patch: Partial<AuditSearch>): void;
  onShow(entry: AuditItem, opener: HTMLElement): void;
}) {
  const { t } = useTranslation();
  return (
    <Table data-testid="audit-table" aria-label={t('route.auditLog')}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('auditLog.columns.time')}</TableHead>
          <TableHead>{t('auditLog.columns.actor')}</TableHead>
          <TableHead>{t('auditLog.columns.action')}</TableHead>
          <TableHead>{t('auditLog.columns.target')}</TableHead>
          <TableHead>{t('auditLog.columns.channel')}</TableHead>
          <TableHead className="hidden lg:table-cell">{t('auditLog.columns.address')}</TableHead>
          <TableHead>
            <span className="sr-only">{t('auditLog.columns.details')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id} data-testid={`audit-${item.id}`} data-action={item.action}>
            <TableCell className="whitespace-nowrap tabular-nums">
              <time dateTime={item.at}>{formatDateTime(item.at, timeZone)}</time>
            </TableCell>
            <TableCell>
              <ActorName actor={item.actor} />
            </TableCell>
            <TableCell>
              <button
                type="button"
                className="focus-visible:ring-ring rounded-sm text-start outline-none hover:underline focus-visible:ring-2"
                onClick={() => setSearch({ action: item.action, page: 1 })}
                title={t('auditLog.onlyThisAction')}
                data-testid="audit-action"
              >
                <ActionName action={item.action} label={item.actionLabel} />
              </button>
            </TableCell>
            <TableCell>
              {item.target.type && item.target.id ? (
                <button
                  type="button"
                  className="focus-visible:ring-ring rounded-sm text-start outline-none hover:underline focus-visible:ring-2"
                  onClick={() => setSearch({ entityType: item.target.type ?? undefined, entityId: item.target.id ?? undefined, page: 1 })}
                  title={t('auditLog.historyOfTarget')}
                  data-testid="audit-target"
                >
                  <TargetName target={item.target} />
                </button>
              ) : (
                <TargetName target={item.target} />
              )}
            </TableCell>
            <TableCell>
              <ChannelBadge channel={item.channel} />
            </TableCell>
            <TableCell className="hidden font-mono text-xs lg:table-cell" dir="ltr">
              {item.ip ?? '—'}
            </TableCell>
            <TableCell className="text-end">
              <Button
                variant="ghost"
                size="icon-sm"
                onClick={(event) => onShow(item, event.currentTarget)}
                aria-label={t('auditLog.viewDetails', { action: item.actionLabel })}
                data-testid="audit-details"
              >
                <FileSearch aria-hidden />
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
