import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import type { MyTicket } from '../model';
import { useGiveTicket, useKeepTicket, useResendGift, useTakeBackGift } from '../mutations';
import { myTicketsQueryOptions } from '../queries';

/** "Give this ticket": an e-mail address, sent a claim link. */
function GiveForm({ ticket, onClose }: { ticket: MyTicket; onClose: () => void }): ReactNode {
  const { t } = useTranslation('gifts');
  const [email, setEmail] = useState('');
  const give = useGiveTicket(ticket.id, onClose);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        give.mutate(email.trim());
      }}
    >
      <Stack gap="xs">
        <TextInput type="email" required label={t('give.email')} description={t('give.hint')} value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
          }}
          data-testid="gift-email"
        />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={give.isPending} data-testid="gift-send">
            {t('give.send')}
          </Button>
          <Button variant="subtle" size="xs" onClick={onClose}>
            {t('give.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PendingGift({ ticket, locale }: { ticket: MyTicket; locale: string }): ReactNode {
  const { t } = useTranslation('gifts');
  const resend = useResendGift();
  const takeBack = useTakeBackGift();
  const gift = ticket.gift;
  if (!gift) return null;
  return (
    <Stack gap={6} data-testid="pending-gift">
      <Text size="sm" dir="auto">
        {t('pending.to', { email: gift.email, date: formatDate(gift.sentAt, locale, { dateStyle: 'medium' }) })}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="light" loading={resend.isPending} onClick={() => { resend.mutate(gift.id); }} data-testid="gift-resend">
          {t('pending.resend')}
        </Button>
        {gift.canTakeBack ? (
          <Button size="xs" variant="light" color="red" loading={takeBack.isPending} onClick={() => { takeBack.mutate(gift.id); }} data-testid="gift-take-back">
            {t('pending.takeBack')}
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            {t('pending.started')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function TicketCard({ ticket, locale }: { ticket: MyTicket; locale: string }): ReactNode {
  const { t } = useTranslation('gifts');
  const [giving, setGiving] = useState(false);
  const keep = useKeepTicket();
  return (
    <Card withBorder padding="sm" data-testid="my-ticket" data-given={ticket.gift ? 'yes' : 'no'} data-spare={ticket.spare ? 'yes' : 'no'}>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text component={Link} to={`/concerts/${ticket.eventId}`} className="encore-link-tap" fw={600} dir="auto" truncate>
            {ticket.title}
          </Text>
          <Text size="xs" c="dimmed" dir="auto">
            {ticket.artistName} · {formatDate(ticket.startsAt, locale, { dateStyle: 'medium', timeStyle: 'short' })}
          </Text>
        </Stack>
        {ticket.gift ? (
          <Badge color="grape" variant="light">{t('badge.given')}</Badge>
        ) : ticket.spare ? (
          <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>{t('badge.spare')}</Badge>
        ) : ticket.listened ? (
          <Badge color="gray" variant="light">{t('badge.listened')}</Badge>
        ) : null}
      </Group>
      <Stack mt="xs" gap="xs">
        {ticket.gift ? <PendingGift ticket={ticket} locale={locale} /> : null}
        {!ticket.gift && ticket.listened ? (
          <Text size="xs" c="dimmed">{t('give.listened')}</Text>
        ) : null}
        {ticket.spare && !ticket.gift ? (
          <Text size="xs" c="dimmed">{t(ticket.canKeep ? 'keep.hint' : 'keep.giveOnly')}</Text>
        ) : null}
        {(ticket.canGive || ticket.canKeep) && !giving ? (
          <Group gap="xs">
            {ticket.canGive ? (
              <Button size="xs" variant="light" leftSection={<IconGift size={14} />} onClick={() => { setGiving(true); }} data-testid="gift-open">
                {t('give.open')}
              </Button>
            ) : null}
            {ticket.canKeep ? (
              <Button size="xs" variant="default" loading={keep.isPending} onClick={() => { keep.mutate(ticket.id); }} data-testid="ticket-keep">
                {t('keep.open')}
              </Button>
            ) : null}
          </Group>
        ) : null}
        {ticket.canGive && giving ? <GiveForm ticket={ticket} onClose={() => { setGiving(false); }} /> : null}
      </Stack>
    </Card>
  );
}

/** The reader's tickets, each with "Give this ticket", and the gifts they sent not claimed yet. */
export function MyTickets(): ReactNode {
  const { t, i18n } = useTranslation('gifts');
  const locale = localeOf(i18n.language);
  const tickets = useQuery(myTicketsQueryOptions());
  if (!tickets.data || tickets.data.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="my-tickets">
      <Title order={3}>{t('title')}</Title>
      {tickets.data.map((ticket) => (
        <TicketCard key={ticket.id} ticket={ticket} locale={locale} />
      ))}
    </Stack>
  );
}
