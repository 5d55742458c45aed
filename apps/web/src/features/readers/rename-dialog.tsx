import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { READER_LIMITS, ZRenameReaderInput } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateDispensers, invalidateReaders } from './api';
import { useAppForm } from '@/lib/use-app-form';

/** Names of readers and dispensers: the shared rule (packages/shared readers.ts). */
const schema = ZRenameReaderInput.pick({ name: true });

interface Named {
  id: number;
  deviceId: string;
  name: string;
}

/** Names a registered reader or dispenser (an empty name clears it: the device id is shown). */
export function RenameDialog({ kind, item, onClose }: { kind: 'reader' | 'dispenser'; item: Named | null; onClose(): void }) {
  if (!item) return null;
  return <RenameForm kind={kind} item={item} onClose={onClose} />;
}

function RenameForm({ kind, item, onClose }: { kind: 'reader' | 'dispenser'; item: Named; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(schema, { name: item.name });
  const options = {
    meta: { showsErrors: true },
    onSuccess: () => {
      toast.success(t('common.operationSucceeded'));
      void (kind === 'reader' ? invalidateReaders(queryClient) : invalidateDispensers(queryClient));
      onClose();
    },
    onError: (error: unknown) => form.applyServerErrors(error),
  };
  const renameReader = useMutation(trpc.reader.rename.mutationOptions(options));
  const renameDispenser = useMutation(trpc.dispenser.rename.mutationOptions(options));
  const save = kind === 'reader' ? renameReader : renameDispenser;
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate({ id: item.id, name: values.name });
  });
  const error = fieldMessage(t, form.formState.errors.name?.message);
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('deskReaders.renameTitle', { device: item.deviceId })}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={appErrorOf(save.error)?.fields?.name ? null : save.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('roomSetup.save')}
      initialFocus="device-name"
      data-testid="rename-dialog"
      submitTestId="rename-submit"
    >
      <FormField id="device-name" label={t('deskReaders.name')} hint={t('deskReaders.nameHint')} error={error}>
        <Input
          {...fieldControlProps('device-name', error, true)}
          autoComplete="off"
          maxLength={READER_LIMITS.nameMax}
          {...form.register('name')}
          data-testid="device-name"
        />
      </FormField>
    </FormDialog>
  );
}
