import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FACE_RULES, ZFaceAuthorizationNote } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';

type Authorization = RouterOutputs['face']['authorizations']['items'][number];

/** Edits the note of a face authorised on a lock (its own note; empty allowed), as `lock/updateLockFaceNote` does. */
export function AuthorizationNoteDialog({ authorization, onClose }: { authorization: Authorization | null; onClose(): void }) {
  if (!authorization) return null;
  return <AuthorizationNoteForm authorization={authorization} onClose={onClose} />;
}

function AuthorizationNoteForm({ authorization, onClose }: { authorization: Authorization; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => z.object({ note: ZFaceAuthorizationNote }), []);
  const form = useAppForm(schema, { note: authorization.note });
  const save = useMutation(
    trpc.face.updateAuthorizationNote.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('common.operationSucceeded'));
        void queryClient.invalidateQueries({ queryKey: trpc.face.pathKey() });
        onClose();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate({ authorizationId: authorization.id, note: values.note });
  });
  const error = fieldMessage(t, form.formState.errors.note?.message);
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('faces.authorizationNoteTitle', { face: authorization.face.note })}
      description={t('faces.authorizationNoteText')}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={appErrorOf(save.error)?.fields?.note ? null : save.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('roomSetup.save')}
      initialFocus="face-authorization-note"
      data-testid="authorization-note-dialog"
      submitTestId="authorization-note-submit"
    >
      <FormField id="face-authorization-note" label={t('faces.note')} error={error}>
        <Input {...fieldControlProps('face-authorization-note', error)} autoComplete="off" maxLength={FACE_RULES.noteMaxLength} dir="auto" {...form.register('note')} data-testid="face-authorization-note" />
      </FormField>
    </FormDialog>
  );
}
