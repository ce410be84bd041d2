import { API_PREFIX } from '../../lib/constants';
import { request, requestStaticJson } from '../../lib/http';

export interface LicenceEntry {
  name: string;
  /** Null for the server's crates when the reader is not staff. */
  version: string | null;
  license: string;
}

/** The versions are answered to staff only (null for everyone else). */
export interface AboutInfo {
  name: string;
  version: string | null;
  build: string | null;
  licenses: LicenceEntry[];
}

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
