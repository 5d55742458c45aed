import { useRef, useState } from 'react';
import { ImageOff, ImageUp, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { currentLanguage } from '@/lib/language';

export const PICTURE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** Sends one picture to `/api/uploads`; the answer is its public path, or the server's message. */
async function uploadPicture(file: File): Promise<{ url: string } | { error: string }> {
  const formData = new FormData();
  formData.append('file', file);
  const response = await fetch('/api/uploads', { method: 'POST', body: formData, credentials: 'same-origin', headers: { language: currentLanguage().header } });
  const body = (await response.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
  if (response.ok && body?.url) return { url: body.url };
  return { error: body?.error?.message ?? '' };
}

/** The room picture: a preview, an upload button and a remove button. */
export function RoomPictureField({
  id,
  value,
  onChange,
  describedBy,
}: {
  id: string;
  value: string | null;
  onChange(url: string | null): void;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [isUploading, setIsUploading] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setIsUploading(true);
    try {
      const result = await uploadPicture(file);
      if ('url' in result) onChange(result.url);
      else toast.error(result.error || t('frontDesk.detail.uploadFailed'));
    } catch {
      toast.error(t('frontDesk.detail.uploadFailed'));
    } finally {
      setIsUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div
        className="bg-muted text-muted-foreground flex size-28 items-center justify-center overflow-hidden rounded-lg border"
        data-testid="room-picture-preview"
      >
        {value ? (
          <img src={value} alt={t('frontDesk.detail.picturePreview')} className="size-full object-cover" />
        ) : (
          <ImageOff className="size-8" aria-hidden />
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept={PICTURE_TYPES}
          className="sr-only"
          tabIndex={-1}
          aria-describedby={describedBy}
          onChange={(e) => void onFile(e.target.files?.[0])}
          data-testid="room-picture-input"
        />
        <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={isUploading} data-testid="room-picture-upload">
          {isUploading ? <Spinner /> : <ImageUp aria-hidden />}
          {value ? t('frontDesk.detail.replacePicture') : t('frontDesk.detail.uploadPicture')}
        </Button>
        {value && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)} disabled={isUploading} data-testid="room-picture-remove">
            <Trash2 aria-hidden />
            {t('frontDesk.detail.removePicture')}
          </Button>
        )}
      </div>
    </div>
  );
}
