import { Button } from '@mantine/core';
import { IconCheck, IconShare } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { shareOrCopy } from './share';
import type { ShareOutcome } from './share';

/** "Share": the system's share sheet, else the link copied (then "Link copied" for a moment). */
export function ShareButton({ title, path }: { title: string; path: string }): ReactNode {
  const { t } = useTranslation('common');
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);
  useEffect(() => {
    if (outcome !== 'copied' && outcome !== 'failed') return;
    const timer = window.setTimeout(() => {
      setOutcome(null);
    }, 2500);
    return () => {
      window.clearTimeout(timer);
    };
  }, [outcome]);
  const label = outcome === 'copied' ? t('share.copied') : outcome === 'failed' ? t('share.failed') : t('share.share');
  return (
    <Button
      variant="default"
      leftSection={outcome === 'copied' ? <IconCheck size={16} /> : <IconShare size={16} />}
      onClick={() => {
        void shareOrCopy({ title, url: new URL(path, window.location.origin).toString() }).then(setOutcome);
      }}
      aria-live="polite"
      data-testid="share"
      data-outcome={outcome ?? undefined}
    >
      {label}
    </Button>
  );
}
