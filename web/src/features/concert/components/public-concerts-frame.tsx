import { Box, Button, Container } from '@mantine/core';
import type { MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStatus } from '../../auth/session';
import { PublicHeader } from '../../home/components/public-header';
import { FloatingMiniPlayer } from '../../player/components/mini-player';

/** The frame of a public page of concerts (a concert's, an artist's), the same for everyone,
 * signed in or not: the public header with "All concerts" (the concerts once signed in, the
 * home page before), the page in a container `size` wide, and the mini-player. */
export function PublicConcertsFrame({ size, children }: { size: MantineSize; children: ReactNode }): ReactNode {
  const { t } = useTranslation('concert');
  const { hasToken } = useAuthStatus();
  return (
    <Box mih="100vh">
      <PublicHeader>
        <Button component={Link} to={hasToken ? '/events' : '/home'} variant="white">
          {t('page.allConcerts')}
        </Button>
      </PublicHeader>
      <Container size={size} py="xl">
        {children}
      </Container>
      <FloatingMiniPlayer />
    </Box>
  );
}
