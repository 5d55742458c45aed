import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CARD_RULES, ZCardKeySetCreateInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';

/** One of the hotel's card key sets, as the page lists it (never its keys). */
export type KeySet = RouterOutputs['card']['keySets'][number];

const SECTORS = Array.from({ length: 15 }, (_, i) => i + 1);

/** A new key set: what rotation does, then its name (and sector); the old set retires. */
export function NewKeySetDialog({ active, count, onClose, onCreated }: { active: KeySet | null; count: number; onClose(): void; onCreated(): void }) {
  const { t } = useTranslation();
  // Left empty, the server names it "Key set n" as a code, so every reader sees it in their language.
  const form = useAppForm(ZCardKeySetCreateInput, { name: '', sector: active?.sector ?? 1 });
  const create = useMutation(
    trpc.card.createKeySet.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (created) => {
        toast.success(t('cardAdmin.keys.createdToast', { name: created.name, fingerprint: created.fingerprint }));
        onCreated();
        onClose();
      },
      onError: (failure) => form.applyServerErrors(failure),
    }),
  );
  const serverNameError = appErrorOf(create.error)?.fields?.name;
  const submit = form.handleSubmit((input) => create.mutate(input));
  const error = fieldMessage(t, form.formState.errors.name?.message);
  const sector = form.watch('sector');
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={active ? t('cardAdmin.keys.rotateTitle') : t('cardAdmin.keys.firstTitle')}
      description={active ? t('cardAdmin.keys.rotateText', { name: active.name }) : t('cardAdmin.keys.firstText')}
      confirmLabel={active ? t('cardAdmin.keys.rotateConfirm') : t('cardAdmin.keys.firstConfirm')}
      pending={create.isPending}
      onConfirm={() => void submit()}
      data-testid="key-set-new-dialog"
      confirmTestId="key-set-new-confirm"
    >
      {active && (
        <ul className="text-muted-foreground grid list-disc gap-1 ps-5 text-sm" data-testid="key-set-rotation-points">
          <li>{t('cardAdmin.keys.rotateNewCards')}</li>
          <li>{t('cardAdmin.keys.rotateOldCards')}</li>
          <li>{t('cardAdmin.keys.rotateLocks')}</li>
        </ul>
      )}
      <form className="grid gap-2 sm:grid-cols-[1fr_auto] sm:gap-3" onSubmit={(event) => void submit(event)}>
        <FormField id="key-set-name" label={t('cardAdmin.keys.name')} hint={t('cardAdmin.keys.nameOptional')} error={error}>
          <Input
            {...fieldControlProps('key-set-name', error)}
            {...form.register('name')}
            placeholder={t('cardAdmin.keys.defaultName', { n: formatNumber(count + 1) })}
            maxLength={CARD_RULES.nameMaxLength + 10}
            autoComplete="off"
            data-testid="key-set-name"
          />
        </FormField>
        <FormField id="key-set-sector" label={t('cardAdmin.keys.sector')} hint={t('cardAdmin.keys.sectorHint')}>
          <Select value={String(sector)} onValueChange={(value) => form.setValue('sector', Number(value), { shouldDirty: true })}>
            <SelectTrigger {...fieldControlProps('key-set-sector', undefined, true)} className="w-full sm:w-28" data-testid="key-set-sector">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {SECTORS.map((s) => (
                <SelectItem key={s} value={String(s)}>
                  {formatNumber(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        <button type="submit" hidden />
      </form>
      <FormError error={serverNameError ? null : create.error} safeToRetry={false} />
    </ConfirmDialog>
  );
}
