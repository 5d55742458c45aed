import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { SearchInput } from '@/components/search-input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { fromInputValue } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { ValidityChoice } from '@/components/validity-choice';
import { checkValidity, validityDefaults } from '@/lib/validity';
import { cn } from '@/lib/utils';
import { faceQueries, invalidateFaces } from './api';

const FACE_PAGE = 8;
const FORM_FIELDS = ['id', 'validFrom', 'validUntil'];

export interface AuthorizeFaceDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  room: { id: number; name: string };
  /** The room's current stay: a face can be authorised for it. */
  stay: { id: number; expectedCheckOutAt: string } | null;
  timeZone: string;
}

function authorizeSchema(timeZone: string) {
  return z.object({ id: z.string(), mode: z.enum(['stay', 'period']), validFrom: z.string(), validUntil: z.string() }).superRefine((v, ctx) => {
    const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (!v.id) add('id', 'validation.faceRequired');
    checkValidity(v, timeZone, add);
  });
}

/**
 * Authorises a face of the face database on the room's lock: for the current stay (valid until its
 * check-out, revoked with it) or for a period. The face is chosen from the database, searched by
 * face id or note (radio buttons: arrows move, the list pages on the server).
 */
export function AuthorizeFaceDialog(props: AuthorizeFaceDialogProps) {
  if (!props.open) return null;
  return <AuthorizeFaceForm {...props} />;
}

function AuthorizeFaceForm({ onOpenChange, room, stay, timeZone }: AuthorizeFaceDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => authorizeSchema(timeZone), [timeZone]);
  const [defaults] = useState(() => ({ id: '', ...validityDefaults(timeZone, stay !== null) }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [mode, chosen] = useWatch({ control: form.control, name: ['mode', 'id'] });
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 250);
  const faces = useQuery(faceQueries.list(1, FACE_PAGE, search));

  const authorize = useMutation(
    trpc.face.authorize.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (a) => {
        toast.success(t('faces.authorized', { face: a.face.note, room: a.roomName }));
        void invalidateFaces(queryClient);
        onOpenChange(false);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((v) => {
    if (authorize.isPending) return;
    authorize.mutate(
      v.mode === 'stay' && stay
        ? { id: Number(v.id), roomId: room.id, stayId: stay.id }
        : { id: Number(v.id), roomId: room.id, validFrom: fromInputValue(v.validFrom, timeZone), validUntil: fromInputValue(v.validUntil, timeZone) },
    );
  });
  const fields = Object.keys(appErrorOf(authorize.error)?.fields ?? {});
  const shown = mode === 'period' ? FORM_FIELDS : ['id'];
  const shownError = fields.length > 0 && fields.every((f) => shown.includes(f)) ? null : authorize.error;
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);
  const faceError = error('id');
  const items = faces.data?.items ?? [];

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('faces.authorizeTitle', { room: room.name })}
      isDirty={form.formState.isDirty}
      isSaving={authorize.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('faces.authorize')}
      size="lg"
      initialFocus="authorize-face-search"
      safeToRetry={false}
      data-testid="authorize-face-dialog"
      submitTestId="authorize-face-submit"
    >
      <fieldset className="grid gap-2" aria-describedby={faceError ? 'authorize-face-error' : undefined}>
        <legend className="mb-2 text-sm leading-none font-medium">
          {t('faces.chooseFace')}
          <span aria-hidden className="text-destructive ms-1">
            *
          </span>
        </legend>
        <SearchInput
          id="authorize-face-search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('faces.searchPlaceholder')}
          aria-label={t('faces.searchPlaceholder')}
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          data-testid="authorize-face-search"
        />
        <div className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-1" data-testid="authorize-face-list">
          {faces.isLoading ? (
            <Spinner className="m-3" />
          ) : items.length === 0 ? (
            <p className="text-muted-foreground p-3 text-sm">{t('faces.emptySearchTitle')}</p>
          ) : (
            items.map((face) => (
              <label
                key={face.id}
                className={cn(
                  'has-focus-visible:ring-ring flex cursor-pointer items-center gap-3 rounded-md p-2 text-sm has-focus-visible:ring-2',
                  chosen === String(face.id) ? 'bg-primary/10' : 'hover:bg-accent/50',
                )}
              >
                <input
                  type="radio"
                  value={String(face.id)}
                  className="accent-primary size-4 shrink-0"
                  {...form.register('id')}
                  data-testid={`authorize-face-${face.faceId}`}
                />
                <img src={face.imageUrl} alt="" className="bg-muted size-9 rounded border object-cover" />
                <span className="grid min-w-0">
                  <span className="truncate font-medium" dir="auto">
                    {face.note}
                  </span>
                  <span className="text-muted-foreground truncate text-xs" dir="auto">
                    {face.faceId}
                  </span>
                </span>
              </label>
            ))
          )}
        </div>
        {(faces.data?.total ?? 0) > FACE_PAGE && <p className="text-muted-foreground text-xs">{t('faces.moreFaces')}</p>}
        <p id="authorize-face-error" className="text-destructive min-h-5 text-sm">
          {faceError && <span role="alert">{faceError}</span>}
        </p>
      </fieldset>

      <ValidityChoice
        control={form.control}
        register={form.register}
        mode={mode}
        hasStay={stay !== null}
        timeZone={timeZone}
        legend={t('faces.validity')}
        labels={{
          stay: t('faces.forStay'),
          period: t('faces.forPeriod'),
          validFrom: t('credentials.issueDialog.validFrom'),
          validUntil: t('credentials.issueDialog.validUntil'),
        }}
        hints={{ stay: stay ? t('faces.untilCheckOut', { at: formatDateTime(stay.expectedCheckOutAt, timeZone) }) : t('credentials.issueDialog.noStay') }}
        errors={{ validFrom: error('validFrom'), validUntil: error('validUntil') }}
        idPrefix="authorize"
        testIdPrefix="authorize-mode"
      />
    </FormDialog>
  );
}
