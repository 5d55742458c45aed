import { AlertCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { appErrorOf } from '@/lib/api-errors';
import { cn } from '@/lib/utils';

/**
 * Why a form's submit failed, inside the form (a dialog's backdrop hides toasts): the server's
 * message, or, when no answer came, that nothing may have been saved and that sending again is
 * safe. Field errors are shown next to their fields; this says the rest.
 */
export function FormError({ error, className, safeToRetry = true }: { error: unknown; className?: string; safeToRetry?: boolean }) {
  const { t } = useTranslation();
  if (!error) return null;
  const app = appErrorOf(error);
  // Errors the screen handles elsewhere (a confirmation question) are not repeated here.
  if (app?.code === 'CONFIRMATION_REQUIRED') return null;
  const message = app ? app.message : t('common.noAnswer');
  return (
    <div
      role="alert"
      className={cn('border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm', className)}
      data-testid="form-error"
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p>{message}</p>
        {!app && safeToRetry && <p className="text-muted-foreground mt-1">{t('common.noAnswerSafeRetry')}</p>}
      </div>
    </div>
  );
}
