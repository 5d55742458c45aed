import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { READER_LIMITS, ZAddDispenserInput } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { useDeskReader } from '@/lib/desk-reader';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateDispensers } from './api';
import { useAppForm } from '@/lib/use-app-form';
import { ReaderErrorAlert } from './desk-reader-panel';

/** The shared rules of the server (packages/shared readers.ts): device id and name. */
const schema = ZAddDispenserInput;
const FIELDS = ['deviceId', 'name'];

/**
 * Registers a card dispenser by the device id of the reader that drives it: typed, or read from
 * the reader attached to this computer.
 */
export function AddDispenserDialog({ open, deviceId, onOpenChange }: { open: boolean; deviceId?: string; onOpenChange(open: boolean): void }) {
  if (!open) return null;
  return <AddDispenserForm deviceId={deviceId} onOpenChange={onOpenChange} />;
}

function AddDispenserForm({ deviceId, onOpenChange }: { deviceId?: string; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const desk = useDeskReader();
  const form = useMemo(() => ({ deviceId: deviceId ?? '', name: '' }), [deviceId]);
  const f = useAppForm(schema, form);
  const [reading, setReading] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const add = useMutation(
    trpc.dispenser.add.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (d) => {
        toast.success(t('deskReaders.dispenserAdded', { dispenser: d.name || d.deviceId }));
        void invalidateDispensers(queryClient);
        onOpenChange(false);
      },
      onError: (error) => f.applyServerErrors(error),
    }),
  );
  const submit = f.handleSubmit((values) => {
    if (!add.isPending) add.mutate(values);
  });
  const readAttached = async () => {
    setReading({ busy: true, error: null });
    try {
      const info = await (await desk.getReader()).open();
      f.setValue('deviceId', info.deviceId, { shouldDirty: true, shouldValidate: true });
      setReading({ busy: false, error: null });
    } catch (error) {
      setReading({ busy: false, error });
    }
  };
  const errors = f.formState.errors;
  const error = (name: 'deviceId' | 'name') => fieldMessage(t, errors[name]?.message);
  const fields = Object.keys(appErrorOf(add.error)?.fields ?? {});
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('deskReaders.addDispenserTitle')}
      description={t('deskReaders.addDispenserText')}
      isDirty={f.formState.isDirty}
      isSaving={add.isPending}
      error={fields.length > 0 && fields.every((x) => FIELDS.includes(x)) ? null : add.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('deskReaders.addDispenser')}
      initialFocus="dispenser-device"
      data-testid="add-dispenser-dialog"
      submitTestId="add-dispenser-submit"
    >
      <FormField id="dispenser-device" label={t('deskReaders.deviceId')} error={error('deviceId')} required>
        <div className="flex flex-wrap gap-2">
          <Input
            {...fieldControlProps('dispenser-device', error('deviceId'))}
            className="min-w-0 flex-1 font-mono"
            dir="ltr"
            aria-required
            autoComplete="off"
            {...f.register('deviceId')}
            data-testid="dispenser-device"
          />
          <Button type="button" variant="outline" onClick={() => void readAttached()} disabled={reading.busy} data-testid="dispenser-read-device">
            {reading.busy ? <Spinner /> : <Usb aria-hidden />}
            {t('deskReaders.useAttached')}
          </Button>
        </div>
      </FormField>
      {reading.error !== null && <ReaderErrorAlert error={reading.error} />}
      <FormField id="dispenser-name" label={t('deskReaders.name')} hint={t('deskReaders.nameHint')} error={error('name')}>
        <Input
          {...fieldControlProps('dispenser-name', error('name'), true)}
          autoComplete="off"
          maxLength={READER_LIMITS.nameMax}
          {...f.register('name')}
          data-testid="dispenser-name"
        />
      </FormField>
    </FormDialog>
  );
}
