import { Box, Card, Flex, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { Pager } from '../../../components/pager';
import { ShareButton } from '../../../components/share-button';
import { ApiError } from '../../../lib/errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuthStatus } from '../../auth/session';
import { NotFoundPage } from '../../errors/components/not-found-page';
import { concertShelves } from '../../events/model';
import { useStateRefresh } from '../../events/use-state-refresh';
import { EventSection } from '../../home/components/home-event-card';
import { PublicConcertsFrame } from '../../concert/components/public-concerts-frame';
import type { Artist } from '../model';
import { artistPath, paragraphs } from '../model';
import { artistConcertsQueryOptions, artistQueryOptions } from '../queries';
import { ArtistPicture } from './artist-picture';

function ArtistHeader({ artist, count }: { artist: Artist; count: number }): ReactNode {
  const { t } = useTranslation('concert');
  const texts = paragraphs(artist.description);
  return (
    <Card withBorder padding="lg" data-testid="artist-page">
      <Flex direction={{ base: 'column', sm: 'row' }} gap="lg" align={{ base: 'stretch', sm: 'flex-start' }}>
        <Box w={{ base: '100%', sm: 240 }} style={{ flexShrink: 0 }}>
          <ArtistPicture name={artist.name} src={artist.image ?? artist.thumbnail} height={240} radius="md" />
        </Box>
        <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h2', sm: 'h1' }} dir="auto" style={{ overflowWrap: 'anywhere' }} data-testid="artist-name">
            {artist.name}
          </Title>
          {count > 0 ? (
            <Text c="dimmed" data-testid="artist-concert-count">
              {t('artist.concertCount', { count })}
            </Text>
          ) : null}
          {texts.length > 0 ? (
            <Stack gap="xs" data-testid="artist-description">
              {texts.map((text, index) => (
                <Text key={`${String(index)}-${text.slice(0, 16)}`} dir="auto" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {text}
                </Text>
              ))}
            </Stack>
          ) : null}
          <Group>
            <ShareButton title={artist.name} path={artistPath(artist.id)} />
          </Group>
        </Stack>
      </Flex>
    </Card>
  );
}

/** `/artists/{id}`: an artist for everyone, signed in or not: the picture, the artist's own
 * words and the concerts (live now, coming up, replays), each card opening its concert. */
export function ArtistPage(): ReactNode {
  const { t } = useTranslation('concert');
  const { id = '' } = useParams();
  const { hasToken } = useAuthStatus();
  const [page, setPage] = useState(1);
  const artist = useQuery({ ...artistQueryOptions(id), retry: false });
  const list = useQuery(artistConcertsQueryOptions(id, page));
  const events = list.data?.items ?? [];
  useStateRefresh(events.map((event) => event.state));
  usePageTitle(artist.data?.name);
  if (artist.isError && artist.error instanceof ApiError && artist.error.status === 404) return <NotFoundPage />;

  const { live, upcoming, replays } = concertShelves(events);
  const shown = live.length + upcoming.length + replays.length;
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  // A show that never aired is on no shelf: counted only when there is more than a page.
  const count = pages > 1 ? (list.data?.total ?? 0) : shown;
  return (
    <PublicConcertsFrame size="lg">
      {artist.isPending ? (
        <Skeleton h={280} />
      ) : artist.isError ? (
        <Text c="red">{t('artist.loadFailed')}</Text>
      ) : (
        <Stack gap="xl">
          <ArtistHeader artist={artist.data} count={count} />
          {list.isPending ? (
            <Skeleton h={260} />
          ) : list.isError ? (
            <Text c="red">{t('artist.concertsFailed')}</Text>
          ) : shown === 0 ? (
            <EmptyState title={t('artist.noConcerts')} description={t('artist.noConcertsText')} />
          ) : (
            <>
              <EventSection title={t('artist.liveNow')} events={live} signedIn={hasToken} testId="artist-live" order={2} />
              <EventSection title={t('artist.upcoming')} events={upcoming} signedIn={hasToken} testId="artist-upcoming" order={2} />
              <EventSection title={t('artist.replays')} events={replays} signedIn={hasToken} testId="artist-replays" order={2} />
            </>
          )}
          <Pager pages={pages} page={page} onChange={setPage} />
        </Stack>
      )}
    </PublicConcertsFrame>
  );
}
