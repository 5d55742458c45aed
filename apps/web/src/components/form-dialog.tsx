import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-error';
import { useGuardedClose, useUnsavedChanges } from '@/components/unsaved-changes';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

interface FormDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  /** True once the user has changed something: closing then asks before discarding. */
  isDirty: boolean;
  /** True while the server works: the dialog stays, the submit button spins. */
  isSaving: boolean;
  /** The last failed submit (shown inside the dialog, the form kept). */
  error: unknown;
  onSubmit(event: React.FormEvent<HTMLFormElement>): void;
  submitLabel: ReactNode;
  /** The dismiss button, when "Cancel" would say the opposite (the cancellation of a reservation: "Keep the reservation"). */
  cancelLabel?: ReactNode;
  children: ReactNode;
  /** Wider dialogs for long forms. */
  size?: 'md' | 'lg' | 'xl';
  submitDisabled?: boolean;
  'data-testid'?: string;
  submitTestId?: string;
  /** Shown in the footer before the buttons (a summary, a hint). */
  footerStart?: ReactNode;
  /**
   * The id of the field that gets the keyboard focus when the dialog opens (the first field
   * otherwise), also when the dialog was opened from a menu that held the focus until it closed.
   */
  initialFocus?: string;
  /** False when sending the same form again could do it twice (no idempotency key): a lost answer then says nothing of a safe retry. */
  safeToRetry?: boolean;
}

const WIDTH = { md: 'sm:max-w-lg', lg: 'sm:max-w-2xl', xl: 'sm:max-w-4xl' } as const;

/**
 * Every form in a dialog looks and behaves the same: a header, a scrolling body, the failure of
 * the last submit inside the dialog (never only under its backdrop), and a footer with Cancel and
 * the submit button. Escape, a click outside, × and Cancel ask before throwing away changes; nothing
 * closes while the server is saving.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  isDirty,
  isSaving,
  error,
  onSubmit,
  submitLabel,
  cancelLabel,
  children,
  size = 'md',
  submitDisabled,
  footerStart,
  submitTestId,
  safeToRetry = true,
  initialFocus,
  'data-testid': testId,
}: FormDialogProps) {
  const { t } = useTranslation();
  const unsaved = useUnsavedChanges(open && isDirty);
  const close = useGuardedClose(onOpenChange, unsaved, isSaving);
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        className={cn('flex flex-col gap-0 p-0', WIDTH[size])}
        closeLabel={t('common.close')}
        onOpenAutoFocus={(event) => {
          const field = initialFocus ? document.getElementById(initialFocus) : null;
          if (!field) return;
          event.preventDefault();
          field.focus();
        }}
        data-testid={testId}
      >
        <DialogHeader className="shrink-0 border-b p-4 pe-12 sm:p-6 sm:pe-12">
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : <DialogDescription className="sr-only">{title}</DialogDescription>}
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="flex min-h-0 flex-1 flex-col">
          <div className="min-h-0 flex-1 space-y-6 overflow-y-auto p-4 sm:p-6">{children}</div>
          <div className="shrink-0 space-y-3 border-t p-4 sm:px-6">
            <FormError error={error} safeToRetry={safeToRetry} />
            <DialogFooter className="items-center">
              {footerStart ? <div className="text-muted-foreground me-auto text-sm">{footerStart}</div> : null}
              <Button type="button" variant="outline" onClick={() => close(false)} disabled={isSaving} data-testid="form-dialog-cancel">
                {cancelLabel ?? t('common.cancel')}
              </Button>
              <Button type="submit" disabled={isSaving || submitDisabled} data-testid={submitTestId}>
                {isSaving && <Spinner />}
                {submitLabel}
              </Button>
            </DialogFooter>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
