import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Download, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { EXPORT_LIMITS, type TExportFormat, type TExportScope } from '@console/shared/export';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { sharedQueries } from '@/lib/queries';
import { trpc } from '@/lib/trpc';
import type { ExportButtonProps } from './export-types';

/**
 * The export dialog (issue 9 §5, spec §1): a file name, the current page or everything that
 * matches the filters, the page size (not for a report written whole), the file's type when it can
 * be more than one; then a progress bar while the server's job writes the file, and its download
 * when it is ready, with what it counted besides its rows (a general ledger's lines of no code).
 */
export function ExportDialog({
  list,
  filters,
  page,
  pageSize,
  total,
  totalCapped = false,
  what,
  formats = ['xlsx'],
  whole = false,
  onClose,
}: ExportButtonProps & { onClose(): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const id = useId();
  const [fileName, setFileName] = useState('');
  const [scope, setScope] = useState<TExportScope>('page');
  const [size, setSize] = useState(pageSize);
  const [format, setFormat] = useState<TExportFormat>(formats[0] ?? 'xlsx');
  const start = useMutation(trpc.export.start.mutationOptions());
  const exportId = start.data?.id;
  const status = useQuery(sharedQueries.exportStatus(start.data));
  const job = exportId ? (status.data ?? start.data) : undefined;
  const isWorking = start.isPending || job?.state === 'waiting' || job?.state === 'running';
  const cleanFilters = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number | boolean | string[]
  >;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const chosen = whole ? 'all' : scope;
    start.mutate({
      list,
      filters: cleanFilters,
      scope: chosen,
      page: chosen === 'page' ? page : 1,
      pageSize: size,
      format,
      fileName: fileName.trim() || undefined,
    });
  };
  const percent = job && job.total > 0 ? Math.min(100, Math.round((job.done / job.total) * 100)) : job?.state === 'done' ? 100 : 0;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid="export-dialog" data-state-export={job?.state ?? 'form'}>
        <DialogHeader>
          <DialogTitle>{t('export.title', { what })}</DialogTitle>
          <DialogDescription>{t(formats.includes('csv') ? 'export.descriptionFormats' : 'export.description')}</DialogDescription>
        </DialogHeader>
        {!job ? (
          <form id={`${id}-form`} onSubmit={submit} className="grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-name`}>{t('export.fileName')}</Label>
              <div className="flex items-center gap-2" dir="ltr">
                <Input
                  id={`${id}-name`}
                  value={fileName}
                  onChange={(e) => setFileName(e.target.value)}
                  maxLength={EXPORT_LIMITS.fileNameMax}
                  placeholder={what}
                  dir="auto"
                  data-testid="export-file-name"
                />
                <span className="text-muted-foreground text-sm">.{format}</span>
              </div>
            </div>
            {formats.length > 1 && (
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-sm font-medium">{t('export.format')}</legend>
                {formats.map((f) => (
                  <label key={f} className="flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name={`${id}-format`}
                      value={f}
                      checked={format === f}
                      onChange={() => setFormat(f)}
                      className="accent-primary size-4"
                      data-testid={`export-format-${f}`}
                    />
                    {t(`export.formats.${f}`)}
                  </label>
                ))}
              </fieldset>
            )}
            {!whole && (
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-sm font-medium">{t('export.scope')}</legend>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-scope`}
                    value="page"
                    checked={scope === 'page'}
                    onChange={() => setScope('page')}
                    className="accent-primary size-4"
                    data-testid="export-scope-page"
                  />
                  {t('export.scopePage')}
                </label>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-scope`}
                    value="all"
                    checked={scope === 'all'}
                    onChange={() => setScope('all')}
                    className="accent-primary size-4"
                    data-testid="export-scope-all"
                  />
                  {t('export.scopeAll', { count: total, number: `${formatNumber(total)}${totalCapped ? '+' : ''}` })}
                </label>
              </fieldset>
            )}
            {!whole && (
              <div className="grid gap-2">
                <Label htmlFor={`${id}-size`}>{t('export.pageSize')}</Label>
                <NativeSelect
                  id={`${id}-size`}
                  value={String(size)}
                  onChange={(e) => setSize(Number(e.target.value))}
                  disabled={scope === 'all'}
                  wrapperClassName="w-32"
                  data-testid="export-page-size"
                >
                  {[...new Set([...LIMITS.pageSizeOptions, pageSize])]
                    .sort((a, b) => a - b)
                    .map((n) => (
                      <NativeSelectOption key={n} value={String(n)}>
                        {formatNumber(n)}
                      </NativeSelectOption>
                    ))}
                </NativeSelect>
              </div>
            )}
            <FormError error={start.error} />
          </form>
        ) : (
          <div className="grid gap-3" aria-live="polite">
            <p className="truncate text-sm font-medium" dir="auto" data-testid="export-file">
              {job.fileName}
            </p>
            <div
              role="progressbar"
              aria-label={t('export.progress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="bg-muted h-2 w-full overflow-hidden rounded-full"
              data-testid="export-progress"
              data-done={job.done}
              data-total={job.total}
            >
              <div className="bg-primary h-full rounded-full transition-[width] duration-300 rtl:ms-auto" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-muted-foreground flex items-center gap-2 text-sm" data-testid="export-status">
              {isWorking && <Spinner />}
              {job.state === 'waiting' && t('export.waiting')}
              {job.state === 'running' && t('export.running', { done: formatNumber(job.done), total: formatNumber(job.total) })}
              {job.state === 'done' && t('export.ready', { rows: formatNumber(job.done), count: job.done })}
              {job.state === 'expired' && t('export.expired')}
              {job.state === 'failed' && <span className="text-destructive">{job.error ?? t('export.errors.failed')}</span>}
            </p>
            {job.state === 'done' &&
              Object.entries(job.tallies).map(([tally, count]) => (
                <p key={tally} className="text-sm" data-testid={`export-tally-${tally}`} data-count={count}>
                  {t(`export.tallies.${tally}`, { number: formatNumber(count) })}
                </p>
              ))}
            {job.state === 'done' && job.expiresAt && (
              <p className="text-muted-foreground text-xs">{t('export.expiresAt', { time: formatDateTime(job.expiresAt, timeZone) })}</p>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t('common.close')}
          </Button>
          {!job && (
            <Button type="submit" form={`${id}-form`} disabled={start.isPending} data-testid="export-start">
              {start.isPending ? <Spinner /> : <Download aria-hidden />}
              {t('export.start')}
            </Button>
          )}
          {job?.state === 'done' && job.downloadUrl && (
            <Button asChild data-testid="export-download">
              <a href={job.downloadUrl} download={job.fileName}>
                <Download aria-hidden />
                {t('export.download')}
              </a>
            </Button>
          )}
          {(job?.state === 'failed' || job?.state === 'expired') && (
            <Button onClick={() => start.reset()} data-testid="export-again">
              <RotateCcw aria-hidden />
              {t('export.again')}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
