import { useRef, useState } from 'react';
import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { API_KEY_PREFIX } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import type { CreatedApiKey } from './new-api-key-dialog';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The new key, shown this once (only its hash is kept): a copy button and a warning that it will
 * not be shown again. Closing it (Escape, ×, Done) asks first whether the key was copied.
 */
export function ApiKeyCreatedDialog({ created, onClose }: { created: CreatedApiKey | null; onClose(): void }) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<CopyState>('idle');
  const [isAsking, setIsAsking] = useState(false);
  const keyField = useRef<HTMLInputElement>(null);

  const copyKey = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy('copied');
    } catch {
      // No clipboard (an insecure page, a refusal): the key is selected for Ctrl+C.
      keyField.current?.focus();
      keyField.current?.select();
      setCopy('failed');
    }
  };
  const close = () => {
    setIsAsking(false);
    setCopy('idle');
    onClose();
  };

  return (
    <>
      <Dialog open={created !== null} onOpenChange={(open) => !open && setIsAsking(true)}>
        <DialogContent
          closeLabel={t('common.close')}
          className="sm:max-w-xl"
          data-testid="api-key-created-dialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            document.getElementById('api-key-copy')?.focus();
          }}
        >
          <DialogHeader className="pe-8">
            <DialogTitle>{t('apiKeys.created.title', { name: created?.apiKey.name ?? '' })}</DialogTitle>
            <DialogDescription>{t('apiKeys.created.description')}</DialogDescription>
          </DialogHeader>
          <div
            role="alert"
            className="border-warning bg-warning/15 flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
            data-testid="api-key-once-warning"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>{t('apiKeys.created.warning')}</p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="api-key-secret">{t('apiKeys.created.keyLabel')}</Label>
            <div className="flex gap-2">
              <input
                ref={keyField}
                id="api-key-secret"
                readOnly
                value={created?.key ?? ''}
                dir="ltr"
                spellCheck={false}
                onFocus={(event) => event.currentTarget.select()}
                className="border-input bg-muted/40 focus-visible:ring-ring min-w-0 flex-1 rounded-md border px-3 py-2 font-mono text-sm outline-none focus-visible:ring-2"
                data-testid="api-key-secret"
              />
              <Button
                id="api-key-copy"
                type="button"
                variant={copy === 'copied' ? 'secondary' : 'default'}
                onClick={() => void copyKey()}
                data-testid="api-key-copy"
              >
                {copy === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
                {copy === 'copied' ? t('apiKeys.created.copied') : t('apiKeys.created.copy')}
              </Button>
            </div>
            <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="api-key-copy-state">
              {copy === 'copied' ? t('apiKeys.created.copiedHint') : copy === 'failed' ? t('apiKeys.created.copyFailed') : null}
            </p>
            <p className="text-muted-foreground text-sm">
              {t('apiKeys.created.usage')}{' '}
              <code className="bg-muted rounded px-1.5 py-0.5 font-mono text-xs" dir="ltr">
                Authorization: Bearer {API_KEY_PREFIX}…
              </code>
            </p>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setIsAsking(true)} data-testid="api-key-done">
              {t('common.done')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={isAsking}
        onOpenChange={setIsAsking}
        title={t('apiKeys.created.confirmTitle')}
        description={copy === 'copied' ? t('apiKeys.created.confirmCopied') : t('apiKeys.created.confirmNotCopied')}
        confirmLabel={t('apiKeys.created.confirmClose')}
        cancelLabel={t('apiKeys.created.confirmBack')}
        pending={false}
        onConfirm={close}
        destructive={copy !== 'copied'}
        data-testid="api-key-close-confirm"
        confirmTestId="api-key-close-confirm-yes"
      />
    </>
  );
}
