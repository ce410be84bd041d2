import { API_PREFIX } from '../../lib/constants';
import type { Body, Payload, Query, Schema } from '../../lib/api-types';
import { request } from '../../lib/http';

export type ProjectStatus = Schema<'ProjectStatus'>;
export type ProjectMember = Schema<'Member'>;
export type Project = Schema<'Project'>;
export type ProjectPage = Payload<'projects.list'>;
/** A new project; an update takes the same fields (the server leaves out the absent ones). */
export type ProjectInput = Body<'projects.create'> & Body<'projects.update'>;

const base = `${API_PREFIX}/projects`;
const id = (value: string): string => encodeURIComponent(value);

export const listProjects = (page: number, pageSize: number): Promise<ProjectPage> =>
  request<ProjectPage>(base, { query: { page, pageSize } satisfies Query<'projects.list'> });
export const createProject = (input: ProjectInput): Promise<Project> => request<Project>(base, { method: 'POST', body: input });
export const updateProject = (projectId: string, input: ProjectInput): Promise<Project> =>
  request<Project>(`${base}/${id(projectId)}`, { method: 'PUT', body: input });
export const addProjectMember = (projectId: string, login: string): Promise<Project> =>
  request<Project>(`${base}/${id(projectId)}/members`, {
    method: 'POST',
    body: { login } satisfies Body<'projects.add_member'>,
  });
export const removeProjectMember = (projectId: string, accountId: string): Promise<unknown> =>
  request<unknown>(`${base}/${id(projectId)}/members/${id(accountId)}`, { method: 'DELETE' });

/** The artist's picture (PNG, JPEG or WebP, re-encoded by the server): the project with its
 * new `image` and `thumbnail`. */
export function uploadProjectPicture(projectId: string, file: File): Promise<Project> {
  const form = new FormData();
  form.append('file', file);
  return request<Project>(`${base}/${id(projectId)}/image`, { method: 'POST', form });
}
