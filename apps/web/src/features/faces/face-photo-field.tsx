import { useRef, useState } from 'react';
import { ImageUp, ScanFace } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FACE_RULES } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { currentLanguage } from '@/lib/language';

const ACCEPT = FACE_RULES.imageTypes.join(',');

/**
 * Sends a face photo to `/api/uploads?purpose=face` (the session cookie signs it): its stored
 * path (what the form sends) and a signed URL that shows it for a while (the path alone shows
 * nothing: face photos are private), or the server's message (translated), or a validation key
 * when the file is refused here.
 */
async function uploadFacePhoto(file: File): Promise<{ url: string; previewUrl: string } | { error: string }> {
  if (!(FACE_RULES.imageTypes as readonly string[]).includes(file.type)) return { error: 'validation.faceImageType' };
  if (file.size > FACE_RULES.imageMaxBytes) return { error: 'validation.faceImageTooLarge' };
  if (file.size < FACE_RULES.imageMinBytes) return { error: 'validation.faceImageTooSmall' };
  const formData = new FormData();
  formData.append('file', file);
  const response = await fetch('/api/uploads?purpose=face', {
    method: 'POST',
    body: formData,
    credentials: 'same-origin',
    headers: { language: currentLanguage().header },
  });
  const body = (await response.json().catch(() => null)) as { url?: string; previewUrl?: string; error?: { message?: string } } | null;
  if (response.ok && body?.url && body.previewUrl) return { url: body.url, previewUrl: body.previewUrl };
  return { error: body?.error?.message || 'validation.faceImageInvalid' };
}

/**
 * The face photo of the "Add face" form: a preview and a button opening the file chooser (JPG or
 * PNG, 300 KB to 2 MB, checked here and again by the server). `value` is the stored path; the
 * preview shows the signed URL the upload answered for it. An upload that fails says why through
 * `onError`, next to the field.
 */
export function FacePhotoField({
  id,
  value,
  onChange,
  onError,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange(url: string): void;
  onError(message: string): void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [isUploading, setIsUploading] = useState(false);
  const [preview, setPreview] = useState<{ path: string; url: string } | null>(null);
  const previewUrl = value && preview?.path === value ? preview.url : null;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setIsUploading(true);
    try {
      const result = await uploadFacePhoto(file);
      if ('url' in result) {
        setPreview({ path: result.url, url: result.previewUrl });
        onChange(result.url);
      } else onError(result.error);
    } catch {
      onError(t('frontDesk.detail.uploadFailed'));
    } finally {
      setIsUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div
        className="bg-muted text-muted-foreground flex size-28 items-center justify-center overflow-hidden rounded-lg border"
        data-testid="face-photo-preview"
      >
        {previewUrl ? <img src={previewUrl} alt={t('faces.photoPreview')} className="size-full object-cover" /> : <ScanFace className="size-8" aria-hidden />}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => void onFile(e.target.files?.[0])}
        data-testid="face-photo-input"
      />
      <Button
        id={id}
        type="button"
        variant="outline"
        size="sm"
        onClick={() => fileInput.current?.click()}
        disabled={isUploading}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid="face-photo-upload"
      >
        {isUploading ? <Spinner /> : <ImageUp aria-hidden />}
        {value ? t('frontDesk.detail.replacePicture') : t('faces.uploadPhoto')}
      </Button>
    </div>
  );
}
