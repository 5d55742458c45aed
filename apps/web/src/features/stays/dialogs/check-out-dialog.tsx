import { useQuery } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { useLaterTexts } from '@/lib/use-later-texts';
import { SettleCheckOutDialog } from '../bills/settle-check-out-dialog';
import { EndStayDialog, type EndStayDialogProps, type EndStayTexts } from './end-stay-dialog';
import type { StayDto } from './stay-helpers';
import { stayQueries } from '../api';

const TEXTS: EndStayTexts = {
  title: 'frontDesk.stay.checkOutTitle',
  text: 'frontDesk.stay.checkOutText',
  submit: 'frontDesk.stay.checkOutSubmit',
  succeeded: 'frontDesk.stay.checkOutSucceeded',
  period: 'frontDesk.stay.stayPeriod',
  notices: ['frontDesk.stay.checkOutRoomDirty'],
};

/**
 * "A confirm prompt comes before checkout." The room becomes dirty and the stay's cards,
 * passwords and faces are revoked. (A reservation whose guest has not come is cancelled instead:
 * CancelReservationDialog.) A failure is shown in the prompt, which stays open for another try.
 *
 * Every stay is settled as it checks out (SettleCheckOutDialog: what is owed or due back, the
 * deposit refunded or kept, how it is paid or why it is left owing), an empty bill's too. The plain
 * prompt is left for a bill that cannot be read. The folio is asked for first.
 */
export function CheckOutDialog({ onCheckedOut, ...props }: Omit<EndStayDialogProps, 'onEnded'> & { onCheckedOut?(stay: StayDto): void }) {
  const { stay, open } = props;
  const folio = useQuery(stayQueries.checkOutFolio(stay?.id ?? 0, open && stay !== null));
  const hasTexts = useLaterTexts('orders.checkOut.submit');
  // Every stay's check-out shows its settlement, an empty bill's too (the room charge is owed all the same).
  const ledger = folio.data && folio.data.state === 'open' && folio.data.preview ? { ...folio.data, preview: folio.data.preview } : null;
  if (open && stay && (folio.isPending || (ledger && !hasTexts)) && !folio.isError) return null;
  if (stay && ledger) return <SettleCheckOutDialog stay={stay} folio={ledger} open={open} onOpenChange={props.onOpenChange} onCheckedOut={onCheckedOut} />;
  return (
    <EndStayDialog
      {...props}
      onEnded={onCheckedOut}
      endOptions={trpc.stay.checkOut.mutationOptions}
      texts={TEXTS}
      data-testid="check-out-confirm"
      confirmTestId="check-out-submit"
    />
  );
}
