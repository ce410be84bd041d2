import { Box, Image, Text } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { initials, placeholderColour } from '../model';

/** An artist's picture filling its box, or, without one (or when it fails to load), the
 * name's initials on a colour of its own: never a broken image. `src`: the picture or its
 * thumbnail, whichever the place needs. */
export function ArtistPicture({
  name,
  src,
  height,
  letterSize,
  radius = 0,
}: {
  name: string;
  src: string | null;
  height: number;
  /** The initials' size; a third of the height unless said. */
  letterSize?: number;
  radius?: number | string;
}): ReactNode {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <Image
        src={src}
        alt={name}
        h={height}
        w="100%"
        fit="cover"
        radius={radius}
        onError={() => {
          setFailed(src);
        }}
        data-testid="artist-picture"
      />
    );
  }
  // The name is written beside it: the letters are decoration.
  return (
    <Box
      h={height}
      w="100%"
      bg={`${placeholderColour(name)}.8`}
      style={{ borderRadius: typeof radius === 'number' ? radius : `var(--mantine-radius-${radius})`, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      aria-hidden
      data-testid="artist-initials"
    >
      <Text c="white" fw={800} lh={1} fz={letterSize ?? Math.round(height / 3)}>
        {initials(name)}
      </Text>
    </Box>
  );
}
