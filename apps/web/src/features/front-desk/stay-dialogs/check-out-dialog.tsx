import { useQuery } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { useLaterTexts } from '@/lib/use-later-texts';
import { SettleCheckOutDialog } from '../folio/settle-check-out-dialog';
import { EndStayDialog, type EndStayDialogProps, type EndStayTexts } from './end-stay-dialog';
import type { StayDto } from './stay-helpers';

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
 * A stay whose bill is kept in the ledger (something was recorded on its folio) is settled as it
 * checks out (SettleCheckOutDialog: what is owed or due back, the deposit refunded or kept); a
 * hotel that does not use the ledger checks out as before. The folio is asked for first: the
 * prompt appears once it is known which of the two it is.
 */
export function CheckOutDialog({ onCheckedOut, ...props }: Omit<EndStayDialogProps, 'onEnded'> & { onCheckedOut?(stay: StayDto): void }) {
  const { stay, open } = props;
  const folio = useQuery({ ...trpc.order.folio.queryOptions({ stayId: stay?.id ?? 0 }), enabled: open && stay !== null, staleTime: 0, meta: { showsErrors: true } });
  const hasTexts = useLaterTexts('orders.checkOut.submit');
  const ledger = folio.data && folio.data.folioId !== null && folio.data.state === 'open' && folio.data.preview ? { ...folio.data, preview: folio.data.preview } : null;
  if (open && stay && (folio.isPending || (ledger && !hasTexts)) && !folio.isError) return null;
  if (stay && ledger) return <SettleCheckOutDialog stay={stay} folio={ledger} open={open} onOpenChange={props.onOpenChange} onCheckedOut={onCheckedOut} />;
  return <EndStayDialog {...props} onEnded={onCheckedOut} endOptions={trpc.stay.checkOut.mutationOptions} texts={TEXTS} data-testid="check-out-confirm" confirmTestId="check-out-submit" />;
}
