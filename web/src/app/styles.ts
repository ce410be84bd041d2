// The style sheets every page needs, in cascade order: Mantine's, then ours over them.
// Imported first by main.tsx and bundled with the first load (vite.config.ts), so they
// come before the style sheets of the components.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
