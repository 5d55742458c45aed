import type * as React from 'react';
import { useTranslation } from 'react-i18next';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Spinner } from '@/components/ui/spinner';

export interface ConfirmDialogProps {
  open: boolean;
  /** Called with false when the user dismisses the dialog; never while the action is pending. */
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  /** More to read before confirming, under the description. */
  children?: React.ReactNode;
  confirmLabel: React.ReactNode;
  cancelLabel?: React.ReactNode;
  /** Red confirm button, for what cannot be undone. */
  destructive?: boolean;
  /** True while the server works on the action: the dialog stays open and both buttons wait. */
  pending: boolean;
  /** Starts the action; the caller closes the dialog when it succeeds. */
  onConfirm: () => void;
  disabled?: boolean;
  'data-testid'?: string;
  confirmTestId?: string;
}

/** The dialog of `ConfirmDialog` (confirm-dialog.tsx), a chunk of its own. */
export function ConfirmDialogContent({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  destructive = false,
  pending,
  onConfirm,
  disabled = false,
  confirmTestId,
  'data-testid': testId,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={open} onOpenChange={(isOpen) => (isOpen || !pending) && onOpenChange(isOpen)}>
      <AlertDialogContent data-testid={testId}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel ?? t('common.cancel')}</AlertDialogCancel>
          <AlertDialogAction
            variant={destructive ? 'destructive' : 'default'}
            disabled={pending || disabled}
            data-testid={confirmTestId}
            onClick={(event) => {
              // Keep the dialog open until the server has answered.
              event.preventDefault();
              if (!pending) onConfirm();
            }}
          >
            {pending && <Spinner />}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
