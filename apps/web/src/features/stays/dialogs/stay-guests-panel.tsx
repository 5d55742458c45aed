import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trash2, UserPlus, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { LIMITS } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import { FormError } from '@/components/form-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { appErrorOf } from '@/lib/api-errors';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatDate } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { ZGuestForm, emptyGuest, toGuestInput } from './form-rules';
import { GuestFields } from './guest-fields';
import { isActiveStay, useInvalidateFrontDesk, type GuestDto, type StayDto } from './stay-helpers';

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
      meta: { showsErrors: true },
      onSuccess: (_stay, input) => {
        const name = stay.guests.find((g) => g.id === input.guestId)?.name ?? '';
        toast.success(t('frontDesk.stay.removeCoGuestSucceeded', { name }));
        setRemoving(null);
        void invalidate();
      },
    }),
  );

  const full = stay.guests.length >= LIMITS.guestsPerStayMax;

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
            title={full ? t('frontDesk.stay.maxGuests', { max: LIMITS.guestsPerStayMax }) : undefined}
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
        onOpenChange={(isOpen) => {
          if (isOpen) return;
          setRemoving(null);
          remove.reset();
        }}
        title={t('frontDesk.stay.removeCoGuestTitle')}
        description={removing && t('frontDesk.stay.removeCoGuestText', { name: removing.name, room: stay.roomName })}
        confirmLabel={t('frontDesk.stay.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ stayId: stay.id, guestId: removing.id })}
        data-testid="remove-guest-confirm"
        confirmTestId="remove-guest-submit"
      >
        <FormError error={remove.error} />
      </ConfirmDialog>
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

/**
 * Adds a co-guest to the current stay. A failure stays in the dialog with the form kept. The API
 * takes no idempotency key for this, so a lost answer is not called safe to resend: the operator
 * checks the guest list first (it is refreshed on closing).
 */
function AddCoGuestDialog({ stay, open, onOpenChange }: { stay: StayDto; open: boolean; onOpenChange(open: boolean): void }) {
  if (!open) return null;
  return <AddCoGuestForm stay={stay} onOpenChange={onOpenChange} />;
}

function AddCoGuestForm({ stay, onOpenChange }: { stay: StayDto; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const [defaults] = useState((): AddGuestForm => ({ guest: { ...emptyGuest } }));
  const form = useAppForm(ZAddGuestForm, defaults);
  const add = useMutation(
    trpc.stay.addGuest.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (_stay, input) => {
        toast.success(t('frontDesk.stay.addCoGuestSucceeded', { name: input.guest.name.trim() }));
        void invalidate();
        onOpenChange(false);
      },
      onError: (error) => {
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
        else void invalidate();
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!add.isPending) add.mutate({ stayId: stay.id, guest: toGuestInput(values.guest) });
  });
  const app = appErrorOf(add.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).some(isFormField) ? null : add.error;
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('frontDesk.stay.addCoGuestTitle', { room: stay.roomName })}
      description={t('frontDesk.stay.addCoGuestDescription')}
      isDirty={form.formState.isDirty}
      isSaving={add.isPending}
      error={shownError}
      safeToRetry={false}
      initialFocus="co-guest-name"
      onSubmit={(event) => void submit(event)}
      submitLabel={t('frontDesk.stay.addCoGuestSubmit')}
      data-testid="add-guest-dialog"
      submitTestId="add-guest-submit"
    >
      <div data-testid="add-guest-form">
        <GuestFields control={form.control} register={form.register} name="guest" idPrefix="co-guest" autoFocus timeZone={timeZone} />
      </div>
    </FormDialog>
  );
}
