import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';

export type ProjectStatus = 'active' | 'paused' | 'archived';

export interface ProjectMember {
  id: string;
  login: string;
  fullname: string;
}

export interface Project {
  id: string;
  name: string;
  description: string;
  status: ProjectStatus;
  createdAt: string;
  members: ProjectMember[];
  eventCount: number;
}

export interface ProjectPage {
  items: Project[];
  total: number;
  page: number;
  pageSize: number;
}

export interface ProjectInput {
  name: string;
  description?: string;
  status?: ProjectStatus;
}

const base = `${API_PREFIX}/projects`;
const id = (value: string): string => encodeURIComponent(value);

export const listProjects = (page: number, pageSize: number): Promise<ProjectPage> =>
  request<ProjectPage>(base, { query: { page, pageSize } });
export const createProject = (input: ProjectInput): Promise<Project> => request<Project>(base, { method: 'POST', body: input });
export const updateProject = (projectId: string, input: ProjectInput): Promise<Project> =>
  request<Project>(`${base}/${id(projectId)}`, { method: 'PUT', body: input });
export const addProjectMember = (projectId: string, login: string): Promise<Project> =>
  request<Project>(`${base}/${id(projectId)}/members`, { method: 'POST', body: { login } });
export const removeProjectMember = (projectId: string, accountId: string): Promise<unknown> =>
  request<unknown>(`${base}/${id(projectId)}/members/${id(accountId)}`, { method: 'DELETE' });
