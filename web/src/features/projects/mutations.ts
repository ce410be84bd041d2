import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { addProjectMember, createProject, removeProjectMember, updateProject, uploadProjectPicture } from './api';
import { artistKeys } from '../artist/queries';
import { checkPictureFile } from './picture';
import type { Project, ProjectInput } from './api';
import { projectKeys } from './queries';

/** POST /projects (staff); refreshes every project list. */
export function useCreateProject(onCreated: (project: Project) => void, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProjectInput) => createProject(input),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      onCreated(project);
    },
    onError,
  });
}

function useProjectsError(): (error: unknown) => void {
  const { t } = useTranslation('events');
  return (error) => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
}

/** Create (project null) or update a project: says so and refreshes every project list. */
export function useSaveProject(project: Project | null, onSaved: () => void) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useProjectsError();
  return useMutation({
    mutationFn: (values: ProjectInput) => (project ? updateProject(project.id, values) : createProject(values)),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('projects.saved') });
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      onSaved();
    },
    onError,
  });
}

/** Add a member by login (e-mail, lower-cased here). */
export function useAddProjectMember(projectId: string, onAdded: () => void) {
  const queryClient = useQueryClient();
  const onError = useProjectsError();
  return useMutation({
    mutationFn: (login: string) => addProjectMember(projectId, login.trim().toLowerCase()),
    onSuccess: async () => {
      onAdded();
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
    onError,
  });
}

export function useRemoveProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  const onError = useProjectsError();
  return useMutation({
    mutationFn: (accountId: string) => removeProjectMember(projectId, accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
    onError,
  });
}

/** A new picture for the artist: checked here first, then sent; refreshes the projects and
 * the artist's page. */
export function useUploadProjectPicture(projectId: string) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useProjectsError();
  return useMutation({
    mutationFn: (file: File) => {
      checkPictureFile(file);
      return uploadProjectPicture(projectId, file);
    },
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('projects.pictureSaved') });
      await Promise.all([queryClient.invalidateQueries({ queryKey: projectKeys.all }), queryClient.invalidateQueries({ queryKey: artistKeys.all })]);
    },
    onError,
  });
}
