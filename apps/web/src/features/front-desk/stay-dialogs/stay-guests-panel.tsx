import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trash2, UserPlus, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { formatDate } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { ZGuestForm, emptyGuest, toGuestInput } from './form-rules';
import { GuestFields } from './guest-fields';
import { isActiveStay, toastUnshownServerError, useInvalidateFrontDesk, type GuestDto, type StayDto } from './stay-helpers';

/** At most this many guests per stay (the server refuses more). */
const MAX_GUESTS = 10;

/**
 * The guests of a stay, each linked to the guest detail page. While the stay is active, users
 * who may manage stays add co-guests and remove them (never the main guest).
 */
export function StayGuestsPanel({ stay, canEdit }: { stay: StayDto; canEdit: boolean }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateFrontDesk();
  const editable = canEdit && isActiveStay(stay.state);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<GuestDto | null>(null);

  const remove = useMutation(
    trpc.stay.removeGuest.mutationOptions({
      onSuccess: (_stay, input) => {
        const name = stay.guests.find((g) => g.id === input.guestId)?.name ?? '';
        toast.success(t('frontDesk.stay.removeCoGuestSucceeded', { name }));
        setRemoving(null);
        void invalidate();
      },
    }),
  );

  const full = stay.guests.length >= MAX_GUESTS;

  return (
    <section className="space-y-3" aria-labelledby={`stay-${stay.id}-guests-heading`} data-testid="stay-guests-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`stay-${stay.id}-guests-heading`} className="text-sm font-semibold">
          {t('frontDesk.stay.guestsSection', { n: stay.guests.length })}
        </h3>
        {editable && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setAdding(true)}
            disabled={full}
            title={full ? t('frontDesk.stay.maxGuests', { max: MAX_GUESTS }) : undefined}
            data-testid="add-co-guest"
          >
            <UserPlus aria-hidden />
            {t('frontDesk.stay.addCoGuest')}
          </Button>
        )}
      </div>

      {stay.guests.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t('frontDesk.stay.noGuests')}</p>
      ) : (
        <ul className="divide-y rounded-md border">
          {stay.guests.map((guest) => (
            <li key={guest.id} className="grid gap-2 p-3" data-testid={`guest-row-${guest.id}`}>
              <div className="flex flex-wrap items-center gap-2">
                <Link
                  to="/room/thetouristsDetails"
                  search={{ id: guest.id }}
                  className="text-primary focus-visible:ring-ring inline-flex items-center gap-1 rounded-sm font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-2"
                  data-testid={`guest-detail-link-${guest.id}`}
                >
                  <UserRound className="size-4" aria-hidden />
                  {guest.name}
                </Link>
                {guest.isPrimary && <Badge variant="secondary">{t('frontDesk.stay.mainGuest')}</Badge>}
                {editable && !guest.isPrimary && (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="text-destructive hover:text-destructive ms-auto"
                    onClick={() => setRemoving(guest)}
                    aria-label={t('frontDesk.stay.removeCoGuestNamed', { name: guest.name })}
                    data-testid={`remove-guest-${guest.id}`}
                  >
                    <Trash2 aria-hidden />
                    {t('frontDesk.stay.remove')}
                  </Button>
                )}
              </div>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-3">
                <GuestItem label={t('frontDesk.stay.gender')}>{t(`frontDesk.stay.genders.${guest.gender}`)}</GuestItem>
                <GuestItem label={t('frontDesk.stay.nationality')}>{guest.nationality || '—'}</GuestItem>
                <GuestItem label={t('frontDesk.stay.birthDate')}>{guest.birthDate ? formatDate(guest.birthDate) : '—'}</GuestItem>
                <GuestItem label={t('frontDesk.stay.idNumber')} ltr>
                  {guest.idNumber ?? '—'}
                </GuestItem>
                <GuestItem label={t('frontDesk.stay.mobile')} ltr>
                  {guest.mobile ?? '—'}
                </GuestItem>
                <GuestItem label={t('frontDesk.stay.email')} ltr>
                  {guest.email ?? '—'}
                </GuestItem>
              </dl>
            </li>
          ))}
        </ul>
      )}

      <AddCoGuestDialog stay={stay} open={adding} onOpenChange={setAdding} />

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(isOpen) => !isOpen && setRemoving(null)}
        title={t('frontDesk.stay.removeCoGuestTitle')}
        description={removing && t('frontDesk.stay.removeCoGuestText', { name: removing.name, room: stay.roomName })}
        confirmLabel={t('frontDesk.stay.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ stayId: stay.id, guestId: removing.id })}
        data-testid="remove-guest-confirm"
        confirmTestId="remove-guest-submit"
      />
    </section>
  );
}

function GuestItem({ label, ltr, children }: { label: string; ltr?: boolean; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate">{ltr ? <span dir="ltr">{children}</span> : children}</dd>
    </div>
  );
}

const ZAddGuestForm = z.object({ guest: ZGuestForm });
type AddGuestForm = z.infer<typeof ZAddGuestForm>;
const isFormField = (name: string) => /^guest\.(name|gender|nationality|birthDate|idNumber|mobile|email)$/.test(name);

function AddCoGuestDialog({ stay, open, onOpenChange }: { stay: StayDto; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-0 p-0" closeLabel={t('common.close')} data-testid="add-guest-dialog">
        <DialogHeader className="shrink-0 border-b p-4 pe-12 sm:p-6 sm:pe-12">
          <DialogTitle>{t('frontDesk.stay.addCoGuestTitle', { room: stay.roomName })}</DialogTitle>
          <DialogDescription>{t('frontDesk.stay.addCoGuestDescription')}</DialogDescription>
        </DialogHeader>
        <AddCoGuestForm stay={stay} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddCoGuestForm({ stay, onDone }: { stay: StayDto; onDone(): void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateFrontDesk();
  const [defaults] = useState((): AddGuestForm => ({ guest: { ...emptyGuest } }));
  const form = useAppForm(ZAddGuestForm, defaults);
  const add = useMutation(
    trpc.stay.addGuest.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: (_stay, input) => {
        toast.success(t('frontDesk.stay.addCoGuestSucceeded', { name: input.guest.name.trim() }));
        void invalidate();
        onDone();
      },
      onError: (error) => {
        if (appErrorOf(error)?.code !== 'VALIDATION') return;
        form.applyServerErrors(error);
        toastUnshownServerError(error, isFormField);
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!add.isPending) add.mutate({ stayId: stay.id, guest: toGuestInput(values.guest) });
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex min-h-0 flex-1 flex-col" data-testid="add-guest-form">
      <div className="min-h-0 flex-1 overflow-y-auto p-4 sm:p-6">
        <GuestFields control={form.control} register={form.register} name="guest" idPrefix="co-guest" autoFocus />
      </div>
      <DialogFooter className="shrink-0 border-t p-4 sm:px-6">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {t('common.cancel')}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={add.isPending} data-testid="add-guest-submit">
          {add.isPending && <Spinner />}
          {t('frontDesk.stay.addCoGuestSubmit')}
        </Button>
      </DialogFooter>
    </form>
  );
}
