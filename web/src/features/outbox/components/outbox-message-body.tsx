import { ActionIcon, Anchor, Code, CopyButton, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { REDACTED_MARK, bodyParts } from '../model';

function CopyableCode({ code }: { code: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Code fz="md" fw={700} style={{ letterSpacing: '0.15em' }} data-testid="outbox-code">
        {code}
      </Code>
      <CopyButton value={code}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('outbox.copied') : t('outbox.copy')} withArrow>
            <ActionIcon size="sm" variant="subtle" onClick={copy} aria-label={t('outbox.copyCode', { code })} mx={4}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </span>
  );
}

/** A message body with its links clickable and its codes easy to read and copy. */
export function OutboxMessageBody({ body }: { body: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="outbox-body">
      {bodyParts(body).map((part, index) => {
        const key = String(index);
        switch (part.kind) {
          case 'text':
            return <span key={key}>{part.text}</span>;
          case 'link':
            return (
              <Anchor key={key} href={part.href} target="_blank" rel="noopener noreferrer" data-testid="outbox-link">
                {part.href}
              </Anchor>
            );
          case 'code':
            return <CopyableCode key={key} code={part.code} />;
          case 'redacted':
            return (
              <Text key={key} span c="dimmed" title={t('outbox.withheld')}>
                {REDACTED_MARK}
              </Text>
            );
        }
      })}
    </Text>
  );
}
