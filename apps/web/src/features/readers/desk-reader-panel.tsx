import { useState, type ReactNode } from 'react';
import { AlertCircle, CheckCircle2, Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader } from '@/lib/desk-reader';
import type { ReaderInfo, ReaderType } from '@/readers/types';

const TYPES: ReaderType[] = [1, 2, 3];

/** The reader type of this computer (spec §9 `cardSenderType`): 1, 2 or 3. */
export function ReaderTypeSelect({ id = 'reader-type' }: { id?: string }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{t('readers.type')}</Label>
      <Select value={String(desk.type)} onValueChange={(value) => desk.setType(Number(value) as ReaderType)}>
        <SelectTrigger id={id} className="w-full sm:w-80" data-testid="reader-type-select">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {TYPES.map((type) => (
            <SelectItem key={type} value={String(type)} data-testid={`reader-type-${type}`}>
              {desk.typeLabel(type)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** A reader failure as spec §8 says it: the text (with the device's code) and the hint. */
export function ReaderErrorAlert({ error, testId = 'reader-error' }: { error: unknown; testId?: string }) {
  const desk = useDeskReader();
  if (!error) return null;
  const { text, hint } = desk.errorText(error);
  return (
    <div
      role="alert"
      className="border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
      data-testid={testId}
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p data-testid={`${testId}-text`}>{text}</p>
        {hint && <p className="text-muted-foreground mt-1">{hint}</p>}
      </div>
    </div>
  );
}

/** What the attached reader reported when opened. */
export function ReaderInfoList({ info }: { info: ReaderInfo }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="reader-info">
      <dt className="text-muted-foreground">{t('deskReaders.deviceId')}</dt>
      <dd className="font-mono break-all" dir="ltr" data-testid="reader-device-id">
        {info.deviceId}
      </dd>
      <dt className="text-muted-foreground">{t('deskReaders.serial')}</dt>
      <dd className="font-mono break-all" dir="ltr" data-testid="reader-serial">
        {info.serial || '—'}
      </dd>
      <dt className="text-muted-foreground">{t('deskReaders.type')}</dt>
      <dd data-testid="reader-info-type" data-address={desk.addresses[info.type]}>
        {desk.typeLabel(info.type)}
      </dd>
    </dl>
  );
}

/**
 * "This computer's card reader": the reader type chosen here, and a check that opens the attached
 * reader and makes it beep, showing what it reports (device id, serial number) or why it failed.
 * `children` gets what it reported, for the page to go on with (bind it, register its dispenser).
 */
export function DeskReaderPanel({
  children,
  description,
  onFound,
}: {
  children?: (info: ReaderInfo) => ReactNode;
  description?: ReactNode;
  onFound?(info: ReaderInfo): void;
}) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const [state, setState] = useState<{ busy: boolean; info: ReaderInfo | null; error: unknown }>({ busy: false, info: null, error: null });
  const check = async () => {
    setState({ busy: true, info: null, error: null });
    try {
      const reader = await desk.getReader();
      const info = await reader.open();
      await reader.beep(100);
      setState({ busy: false, info, error: null });
      onFound?.(info);
    } catch (error) {
      setState({ busy: false, info: null, error });
    }
  };
  // What was read belongs to the type it was read with.
  const info = state.info?.type === desk.type ? state.info : null;
  return (
    <Card className="gap-4 py-4" data-testid="desk-reader-panel">
      <CardHeader className="px-4">
        <CardTitle className="flex items-center gap-2">
          <Usb className="size-4" aria-hidden />
          {t('deskReaders.thisComputer')}
        </CardTitle>
        <CardDescription>{description ?? t('deskReaders.thisComputerText')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 px-4">
        <div className="flex flex-wrap items-end gap-3">
          <ReaderTypeSelect />
          <Button variant="outline" onClick={() => void check()} disabled={state.busy} data-testid="reader-check">
            {state.busy ? <Spinner /> : <CheckCircle2 aria-hidden />}
            {t('deskReaders.check')}
          </Button>
        </div>
        {state.busy && (
          <p className="text-muted-foreground text-sm" role="status">
            {t('deskReaders.checking')}
          </p>
        )}
        {!state.busy && state.error !== null && <ReaderErrorAlert error={state.error} />}
        {!state.busy && info && (
          <div className="flex flex-col gap-2" role="status">
            <p className="flex flex-wrap items-center gap-2 text-sm font-medium" data-testid="reader-found">
              <CheckCircle2 className="text-success size-4" aria-hidden />
              {t('deskReaders.found')}
              {info.simulated && (
                <Badge variant="warning" data-testid="reader-simulated">
                  {t('readers.simulated')}
                </Badge>
              )}
            </p>
            <ReaderInfoList info={info} />
            {children?.(info)}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
