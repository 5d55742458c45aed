import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ZFaceCode, ZFaceImage, ZFaceNote } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateFaces } from './api';
import { FacePhotoField } from './face-photo-field';
import { FaceNoteDialog } from './note-dialog';

export type Face = RouterOutputs['face']['list']['items'][number];

/** The "Add face" form: the shared rules (spec §5: face id, note and photo required), same message keys as the server. */
const addFaceSchema = z.object({ faceId: ZFaceCode, note: ZFaceNote, imageUrl: ZFaceImage });
const ADD_FIELDS = ['faceId', 'note', 'imageUrl'];

/** Adds a face to the face database: its id, a note, and a photo uploaded first. */
export function AddFaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  if (!open) return null;
  return <AddFaceForm onOpenChange={onOpenChange} />;
}

function AddFaceForm({ onOpenChange }: { onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(addFaceSchema, { faceId: '', note: '', imageUrl: '' });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.face.create.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (face) => {
        toast.success(t('faces.added', { face: face.faceId }));
        void invalidateFaces(queryClient);
        onOpenChange(false);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!create.isPending) create.mutate(values);
  });
  const fields = Object.keys(appErrorOf(create.error)?.fields ?? {});
  const shownError = fields.length > 0 && fields.every((f) => ADD_FIELDS.includes(f)) ? null : create.error;
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('faces.addTitle')}
      isDirty={form.formState.isDirty}
      isSaving={create.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('roomSetup.save')}
      initialFocus="face-id"
      data-testid="add-face-dialog"
      submitTestId="add-face-submit"
    >
      <FormField id="face-id" label={t('faces.faceId')} error={error('faceId')} required>
        <Input {...fieldControlProps('face-id', error('faceId'))} aria-required autoComplete="off" {...form.register('faceId')} data-testid="face-id" />
      </FormField>
      <FormField id="face-note" label={t('faces.note')} error={error('note')} required>
        <Input {...fieldControlProps('face-note', error('note'))} aria-required autoComplete="off" {...form.register('note')} data-testid="face-note" />
      </FormField>
      <FormField id="face-photo" label={t('faces.photo')} hint={t('faces.photoHint')} error={error('imageUrl')} required>
        <Controller
          control={form.control}
          name="imageUrl"
          render={({ field }) => (
            <FacePhotoField
              id="face-photo"
              value={field.value}
              onChange={(url) => {
                form.setValue('imageUrl', url, { shouldDirty: true });
                form.clearErrors('imageUrl');
              }}
              onError={(message) => form.setError('imageUrl', { type: 'upload', message })}
              invalid={Boolean(error('imageUrl'))}
              describedBy={['face-photo-hint', error('imageUrl') ? 'face-photo-error' : ''].filter(Boolean).join(' ')}
            />
          )}
        />
      </FormField>
    </FormDialog>
  );
}

/** Changes the note of a face (the lock keeps the name it was given). */
export function EditFaceNoteDialog({ face, onClose }: { face: Face | null; onClose(): void }) {
  const { t } = useTranslation();
  if (!face) return null;
  return (
    <FaceNoteDialog
      note={face.note}
      rule={ZFaceNote}
      title={t('faces.editTitle', { face: face.faceId })}
      required
      fieldId="face-edit-note"
      data-testid="edit-face-dialog"
      submitTestId="edit-face-submit"
      saveOptions={trpc.face.updateNote.mutationOptions}
      input={(note) => ({ id: face.id, note })}
      onClose={onClose}
    />
  );
}
