import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';

/**
 * The confirmation before a row is deleted: a red "Delete", the server's refusal in the prompt
 * (a deletion is not said to be safe to send again).
 */
export function DeleteDialog({
  open,
  onClose,
  title,
  description,
  pending,
  error,
  onConfirm,
  'data-testid': testId,
  confirmTestId,
}: {
  open: boolean;
  /** The prompt was dismissed. */
  onClose(): void;
  title: ReactNode;
  description: ReactNode;
  pending: boolean;
  error: unknown;
  onConfirm(): void;
  'data-testid': string;
  confirmTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      title={title}
      description={description}
      confirmLabel={t('common.delete')}
      destructive
      pending={pending}
      onConfirm={onConfirm}
      data-testid={testId}
      confirmTestId={confirmTestId}
    >
      <FormError error={error} safeToRetry={false} />
    </ConfirmDialog>
  );
}
