/** Business constants of spec section 9, in one place. */
export const API_PREFIX = '/api/v1';
export const OAUTH_PREFIX: string =
  (import.meta.env.VITE_OAUTH_PREFIX as string | undefined) ?? '/api/v1/oauth2';
export const CLIENT_ID = 'encore-web';

export const TIMEOUT_UNAUTHENTICATED_MS = 5000;
export const TIMEOUT_AUTHENTICATED_MS = 15000;

/** Cookie lifetime for authorization codes and tokens (24 h) and the default (1 h). */
export const COOKIE_LONG_SECONDS = 86400;
export const COOKIE_DEFAULT_SECONDS = 3600;

export const STATE_LENGTH = 64;
export const NONCE_LENGTH = 64;
export const CODE_VERIFIER_LENGTH = 43;

/** Refresh the access token when it has less than this left. */
export const REFRESH_MARGIN_SECONDS = 60;

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;

export const SIDEBAR_WIDTH = 280;
export const SHELL_BREAKPOINTS = { sm: 320, md: 640, lg: 1024, xl: 1440 } as const;
export const COMPONENT_BREAKPOINTS = { xs: 0, sm: 640, md: 1024, lg: 1440, xl: 1920 } as const;

export const TOAST_DURATION_MS = 5000;
export const TOAST_OFFSET_PX = 16;

export const PRIMARY_LIGHT = '#154EC1';
export const PRIMARY_DARK = '#3472F0';
export const CONTRAST_THRESHOLD = 150;

export const THEME_STORAGE_KEY = 'theme-preset';
export const LAYOUT_STORAGE_KEY = 'layout';
export const LANGUAGE_STORAGE_KEY = 'language';

/** A phone's width (Mantine's `xs` breakpoint, 36em): below it, pages lay out for a thumb. */
export const PHONE_QUERY = '(max-width: 36em)';
