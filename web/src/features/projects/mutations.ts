import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createProject } from './api';
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
