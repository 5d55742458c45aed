import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CHECK_IN_WARNINGS, type TCheckInWarning } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { appErrorOf } from '@/lib/api-errors';

/** What the server asks to confirm before a check-in or an arrival goes ahead (CONFIRMATION_REQUIRED). */
export interface StayWarning {
  message: string;
  warnings: TCheckInWarning[];
  elsewhere: { guest: string; room: string }[];
}

const ZConfirmationDetails = z.object({
  warnings: z.array(z.enum(CHECK_IN_WARNINGS)).min(1),
  elsewhere: z.array(z.object({ guest: z.string(), room: z.string() })).catch([]),
});

/** The warning of a failed call, or null when the server did not ask for a confirmation. */
export function stayWarningOf(error: unknown): StayWarning | null {
  const app = appErrorOf(error);
  if (app?.code !== 'CONFIRMATION_REQUIRED') return null;
  const details = ZConfirmationDetails.safeParse(app.details);
  return {
    message: app.message,
    warnings: details.success ? details.data.warnings : [...CHECK_IN_WARNINGS],
    elsewhere: details.success ? details.data.elsewhere : [],
  };
}

/**
 * "A warning appears when the guest is already checked into a room, with an option to continue"
 * (spec §4), and the same for a room not yet cleaned: continuing sends the same input again with
 * the warnings acknowledged.
 */
export function StayWarningDialog({
  warning,
  roomName,
  pending,
  onConfirm,
  onCancel,
}: {
  warning: StayWarning | null;
  roomName: string;
  pending: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const otherWarnings = warning ? warning.warnings.slice(1) : [];
  return (
    <ConfirmDialog
      open={warning !== null}
      onOpenChange={(isOpen) => !isOpen && onCancel()}
      title={t('frontDesk.stay.warningTitle')}
      description={warning?.message}
      confirmLabel={t('frontDesk.stay.continue')}
      pending={pending}
      onConfirm={onConfirm}
      data-testid="check-in-warning"
      confirmTestId="check-in-continue"
    >
      {warning && (warning.elsewhere.length > 1 || otherWarnings.length > 0) && (
        <ul className="text-muted-foreground list-disc space-y-1 ps-5 text-sm">
          {warning.warnings.includes('guest_in_other_room') &&
            warning.elsewhere.length > 1 &&
            warning.elsewhere.map((e) => <li key={`${e.guest}-${e.room}`}>{t('frontDesk.stay.guestElsewhere', { guest: e.guest, room: e.room })}</li>)}
          {otherWarnings.map((w) => (
            <li key={w}>{t(`frontDesk.stay.warnings.${w}`, { room: roomName })}</li>
          ))}
        </ul>
      )}
    </ConfirmDialog>
  );
}
