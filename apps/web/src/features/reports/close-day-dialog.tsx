import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateReports } from './api';
import { CloseDayChecks } from './close-day-checks';

/** "Close the day": asked once, since a closed day is never changed. */
export function CloseDayDialog({ date, open, onClose }: { date: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const close = useMutation(
    trpc.order.closeDay.mutationOptions({
      onSuccess: async () => {
        toast.success(t('reports.close.done', { date: formatDate(date) }));
        onClose();
        await invalidateReports(queryClient);
      },
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !close.isPending) {
          close.reset();
          onClose();
        }
      }}
      title={t('reports.close.title', { date: formatDate(date) })}
      description={t('reports.close.description')}
      confirmLabel={t('reports.close.action')}
      pending={close.isPending}
      onConfirm={() => close.mutate({ date })}
      data-testid="report-close-dialog"
      confirmTestId="report-close-confirm"
    >
      <p className="text-sm text-muted-foreground">{t('reports.close.audit')}</p>
      {open && <CloseDayChecks date={date} />}
      <FormError error={close.error} />
    </ConfirmDialog>
  );
}
