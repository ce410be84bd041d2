import {
  IconAlertTriangle,
  IconBroadcast,
  IconCalendarEvent,
  IconCalendarUser,
  IconCreditCard,
  IconHelpCircle,
  IconInfoCircle,
  IconFolders,
  IconLayoutDashboard,
  IconMailbox,
  IconFileInvoice,
  IconReceipt,
  IconReportMoney,
  IconSettings,
  IconTags,
  IconTicket,
  IconUserCog,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MenuIcon } from '../access';

const ICONS: Record<MenuIcon, typeof IconUsers> = {
  dashboard: IconLayoutDashboard,
  events: IconCalendarEvent,
  'my-events': IconTicket,
  users: IconUsers,
  'manage-events': IconCalendarUser,
  projects: IconFolders,
  outbox: IconMailbox,
  orders: IconFileInvoice,
  about: IconInfoCircle,
  payments: IconWallet,
  'payment-methods': IconCreditCard,
  'pricing-plans': IconTags,
  billing: IconReceipt,
  faq: IconHelpCircle,
  '404': IconAlertTriangle,
  preferences: IconUserCog,
  settings: IconSettings,
  live: IconBroadcast,
  statements: IconReportMoney,
};

export function MenuIconView({ icon, size = 18 }: { icon: MenuIcon; size?: number }): ReactNode {
  const Icon = ICONS[icon];
  return <Icon size={size} stroke={1.6} />;
}
