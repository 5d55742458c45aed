import { useState } from 'react';
import { Fingerprint } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { useDeskReader } from '@/lib/desk-reader';
import { DeskReaderPanel, ReaderErrorAlert } from './desk-reader-panel';
import { GOOD_QUALITY, summarizeCapture, type CaptureSummary } from './finger-summary';

/**
 * `/center/personalCenter/cardSenderFingerTest` (spec §2, issue 8 §3): captures a fingerprint
 * through the desk device (the reader of this computer) and shows the result: the quality, with a
 * verdict, and a summary of the template; or why it failed, as spec §8 says it ("no finger", the
 * device has no fingerprint module, "open the reader software").
 */
export function FingerTestPage() {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const [state, setState] = useState<{ busy: boolean; result: CaptureSummary | null; error: unknown }>({ busy: false, result: null, error: null });
  const capture = async () => {
    setState({ busy: true, result: null, error: null });
    try {
      const reader = await desk.getReader();
      const result = summarizeCapture(await reader.captureFingerprint());
      setState({ busy: false, result, error: null });
    } catch (error) {
      setState({ busy: false, result: null, error });
    }
  };
  const result = state.result;
  const isGood = result !== null && result.quality >= GOOD_QUALITY;

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <h1 className="text-xl font-semibold">{t('route.fingerTest')}</h1>
      <DeskReaderPanel />
      <Card className="gap-4 py-4" data-testid="finger-test">
        <CardHeader className="px-4">
          <CardTitle className="flex items-center gap-2">
            <Fingerprint className="size-4" aria-hidden />
            {t('deskReaders.fingerTitle')}
          </CardTitle>
          <CardDescription>{t('deskReaders.fingerText')}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 px-4">
          <div>
            <Button onClick={() => void capture()} disabled={state.busy} data-testid="finger-capture">
              {state.busy ? <Spinner /> : <Fingerprint aria-hidden />}
              {t('deskReaders.fingerCapture')}
            </Button>
          </div>
          {state.busy && (
            <p className="text-muted-foreground text-sm" role="status">
              {t('deskReaders.fingerCapturing')}
            </p>
          )}
          {!state.busy && state.error !== null && <ReaderErrorAlert error={state.error} testId="finger-error" />}
          {!state.busy && result && (
            <div className="flex flex-col gap-3" role="status" data-testid="finger-result" data-quality={result.quality}>
              <p className="flex flex-wrap items-center gap-2 font-medium">
                {t('deskReaders.fingerCaptured')}
                <Badge variant={isGood ? 'success' : 'warning'} data-testid="finger-verdict">
                  {isGood ? t('deskReaders.fingerGood') : t('deskReaders.fingerPoor')}
                </Badge>
              </p>
              <div className="flex flex-col gap-1">
                <div className="flex justify-between text-sm">
                  <span className="text-muted-foreground">{t('deskReaders.fingerQuality')}</span>
                  <span className="tabular-nums" data-testid="finger-quality">
                    {t('deskReaders.fingerQualityValue', { quality: formatNumber(result.quality) })}
                  </span>
                </div>
                <div
                  className="bg-muted h-2 overflow-hidden rounded-full"
                  role="meter"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={result.quality}
                  aria-label={t('deskReaders.fingerQuality')}
                >
                  <div className={isGood ? 'bg-success h-full' : 'bg-warning h-full'} style={{ width: `${result.quality}%` }} />
                </div>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-muted-foreground">{t('deskReaders.fingerTemplate')}</dt>
                <dd data-testid="finger-template">{t('deskReaders.fingerTemplateValue', { size: formatNumber(result.size) })}</dd>
                <dt className="text-muted-foreground">{t('deskReaders.fingerTemplateHead')}</dt>
                <dd className="font-mono text-xs" dir="ltr" data-testid="finger-template-head">
                  {result.head || '—'}
                </dd>
              </dl>
              {!isGood && <p className="text-muted-foreground text-sm">{t('deskReaders.fingerPoorHint')}</p>}
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
