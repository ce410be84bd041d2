export const ROLES = ['user', 'admin', 'sa'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Staff: admin and sa (an sa has every right an admin has). */
export function isStaff(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'sa';
}
