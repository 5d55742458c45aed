import { useMemo } from 'react';
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateFaces } from './api';

interface FaceNoteDialogProps<TData, TError, TVariables> {
  /** The note as it is. */
  note: string;
  /** The shared rule of the note (packages/shared), the server's own. */
  rule: z.ZodType<string, string>;
  title: string;
  description?: string;
  /** A note is required (marked, and `aria-required`). */
  required?: boolean;
  maxLength?: number;
  dir?: 'auto';
  /** The field's id, also its test id. */
  fieldId: string;
  'data-testid': string;
  submitTestId: string;
  /** The procedure's `mutationOptions`. */
  saveOptions: (opts: { meta: { showsErrors: true }; onSuccess(): void; onError(error: unknown): void }) => UseMutationOptions<TData, TError, TVariables>;
  /** What saving `note` sends. */
  input(note: string): TVariables;
  onClose(): void;
}

/**
 * A dialog that edits one note of the face database (a face's, or a face authorisation's): its
 * field checked by the shared rule, the server's field message next to it, any other failure in
 * the dialog; saved, it closes and the face lists are asked again.
 */
export function FaceNoteDialog<TData, TError, TVariables>({
  note,
  rule,
  title,
  description,
  required,
  maxLength,
  dir,
  fieldId,
  'data-testid': testId,
  submitTestId,
  saveOptions,
  input,
  onClose,
}: FaceNoteDialogProps<TData, TError, TVariables>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => z.object({ note: rule }), [rule]);
  const form = useAppForm(schema, { note });
  const save = useMutation(
    saveOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('common.operationSucceeded'));
        void invalidateFaces(queryClient);
        onClose();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate(input(values.note));
  });
  const error = fieldMessage(t, form.formState.errors.note?.message);
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={appErrorOf(save.error)?.fields?.note ? null : save.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('roomSetup.save')}
      initialFocus={fieldId}
      data-testid={testId}
      submitTestId={submitTestId}
    >
      <FormField id={fieldId} label={t('faces.note')} error={error} required={required}>
        <Input
          {...fieldControlProps(fieldId, error)}
          aria-required={required || undefined}
          autoComplete="off"
          maxLength={maxLength}
          dir={dir}
          {...form.register('note')}
          data-testid={fieldId}
        />
      </FormField>
    </FormDialog>
  );
}
