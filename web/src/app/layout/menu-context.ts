import { useQuery } from '@tanstack/react-query';
import { outboxInUseQueryOptions } from '../../features/outbox/queries';
import type { User } from '../../features/users/model';
import type { MenuContext } from '../access';
import { isStaff } from '../../lib/roles';

/** What the menu needs besides the role: project membership and whether the dev outbox is in use. */
export function useMenuContext(user: User): MenuContext {
  const staff = isStaff(user.role);
  const outbox = useQuery({ ...outboxInUseQueryOptions(), enabled: staff });
  return { artist: user.projects.length > 0, outbox: outbox.data === true };
}
