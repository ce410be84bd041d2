import { API_PREFIX } from '../../lib/constants';
import type { Schema } from '../../lib/api-types';
import { request, requestStaticJson } from '../../lib/http';

/** A crate or package and its licence; the version is null for the server's crates when the reader is not staff. */
export type LicenceEntry = Schema<'License'>;

/** The versions are answered to staff only (null for everyone else). */
export type AboutInfo = Schema<'About'>;

export const fetchAbout = (): Promise<AboutInfo> => request<AboutInfo>(`${API_PREFIX}/about`);

interface ViteLicence {
  name: string;
  version: string;
  identifier?: string;
}

/** licenses.json is written by `vite build` from the bundled node_modules packages. */
export const fetchWebLicences = async (): Promise<LicenceEntry[]> => {
  const list = await requestStaticJson<ViteLicence[]>('/licenses.json');
  return list.map((item) => ({ name: item.name, version: item.version, license: item.identifier ?? '' }));
};
