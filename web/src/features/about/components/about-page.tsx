import { Card, Code, Group, SimpleGrid, Skeleton, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { localeOf } from '../../../i18n/languages';
import { localVersion } from '../../../i18n/numbers';
import type { LicenceEntry } from '../api';
import { aboutQueryOptions, webLicencesQueryOptions } from '../queries';

/** A version ("0.1.0") in the reader's digits ("۰٫۱٫۰" in Persian), kept left to right. */
function Version({ value }: { value: string }): ReactNode {
  const { i18n } = useTranslation();
  return <bdi dir="ltr">{localVersion(value, localeOf(i18n.language))}</bdi>;
}

function LicenceTable({ items, filter }: { items: LicenceEntry[]; filter: string }): ReactNode {
  const { t } = useTranslation('dashboard');
  const needle = filter.trim().toLowerCase();
  const rows = items.filter((item) => !needle || item.name.toLowerCase().includes(needle) || item.license.toLowerCase().includes(needle));
  if (rows.length === 0) return <Text c="dimmed">{t('common:empty.itemsNotFound')}</Text>;
  return (
    // Narrow enough for a phone: long names and licences wrap rather than scroll sideways.
    <Table.ScrollContainer minWidth={260}>
      <Table striped highlightOnHover horizontalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('about.package')}</Table.Th>
            <Table.Th>{t('about.version')}</Table.Th>
            <Table.Th>{t('about.licence')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((item) => (
            <Table.Tr key={`${item.name}@${item.version ?? ''}`}>
              {/* Names and licences ("@babel/runtime", "BSD-3-Clause") are identifiers: left to
                  right, or a right-to-left page moves their "@" and "-" about. */}
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <bdi dir="ltr">{item.name}</bdi>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {item.version ? (
                  <Code>
                    <Version value={item.version} />
                  </Code>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <bdi dir="ltr">{item.license}</bdi>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const ABOUT_FIELDS = ['name', 'version', 'build'] as const;

/** The About figures to show: all three while loading, then those the server gave. */
export function aboutFields(answer: Partial<Record<(typeof ABOUT_FIELDS)[number], string | null>> | null): (typeof ABOUT_FIELDS)[number][] {
  return ABOUT_FIELDS.filter((field) => answer === null || Boolean(answer[field]));
}

/** The name as it is; the version in the reader's digits; the build, a git revision ("4c4567c"),
 * is an identifier read against `git log`: as the server gave it, left to right. */
function AboutFigure({ field, value }: { field: (typeof ABOUT_FIELDS)[number]; value: string }): ReactNode {
  if (field === 'version') return <Version value={value} />;
  if (field === 'build') return <bdi dir="ltr">{value}</bdi>;
  return value;
}

/** About: what Encore is, the running version and build, and the licences of what it ships. */
export function AboutPage(): ReactNode {
  const { t } = useTranslation('dashboard');
  const server = useQuery(aboutQueryOptions());
  const web = useQuery(webLicencesQueryOptions());
  const [filter, setFilter] = useState('');
  return (
    <Stack gap="lg">
      <PageHeader title={t('about.title')} description={t('about.intro')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="about-figures">
        {/* The version and build are for staff: a fan's answer has none, and no empty row shows. */}
        {aboutFields(server.isPending ? null : (server.data ?? {})).map((field) => (
          <Card withBorder key={field}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t(`about.${field}`)}
            </Text>
            {server.isPending ? (
              <Skeleton h={24} mt={6} />
            ) : (
              <Text fw={700} data-testid={`about-${field}`}>
                <AboutFigure field={field} value={server.data?.[field] ?? ''} />
              </Text>
            )}
          </Card>
        ))}
      </SimpleGrid>
      {server.isError ? <Text c="red">{t('about.loadFailed')}</Text> : null}
      <Card withBorder>
        <Group justify="space-between" mb="sm">
          <Title order={3}>{t('about.licences')}</Title>
          {/* Wide enough for its hint, whole (the whole line on a phone). */}
          <TextInput
            w={{ base: '100%', sm: 280 }}
            placeholder={t('about.filter')}
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value);
            }}
            aria-label={t('about.filter')}
          />
        </Group>
        <Tabs defaultValue="web">
          <Tabs.List mb="sm">
            <Tabs.Tab value="web">{t('about.webTab', { count: web.data?.length ?? 0 })}</Tabs.Tab>
            <Tabs.Tab value="server">{t('about.serverTab', { count: server.data?.licenses.length ?? 0 })}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="web">
            {web.isError ? (
              <Text c="dimmed">{t('about.webUnavailable')}</Text>
            ) : web.isPending ? (
              <Skeleton h={120} />
            ) : (
              <LicenceTable items={web.data} filter={filter} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="server">
            {server.data ? <LicenceTable items={server.data.licenses} filter={filter} /> : <Skeleton h={120} />}
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
