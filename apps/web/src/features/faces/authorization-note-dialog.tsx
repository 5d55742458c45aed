import { useTranslation } from 'react-i18next';
import { FACE_RULES, ZFaceAuthorizationNote } from '@console/shared';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { FaceNoteDialog } from './note-dialog';

type Authorization = RouterOutputs['face']['authorizations']['items'][number];

/** Edits the note of a face authorised on a lock (its own note; empty allowed), as `lock/updateLockFaceNote` does. */
export function AuthorizationNoteDialog({ authorization, onClose }: { authorization: Authorization | null; onClose(): void }) {
  const { t } = useTranslation();
  if (!authorization) return null;
  return (
    <FaceNoteDialog
      note={authorization.note}
      rule={ZFaceAuthorizationNote}
      title={t('faces.authorizationNoteTitle', { face: authorization.face.note })}
      description={t('faces.authorizationNoteText')}
      maxLength={FACE_RULES.noteMaxLength}
      dir="auto"
      fieldId="face-authorization-note"
      data-testid="authorization-note-dialog"
      submitTestId="authorization-note-submit"
      saveOptions={trpc.face.updateAuthorizationNote.mutationOptions}
      input={(note) => ({ authorizationId: authorization.id, note })}
      onClose={onClose}
    />
  );
}
