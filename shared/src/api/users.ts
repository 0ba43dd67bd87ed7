// User administration contracts: POST /users, PATCH/DELETE /users/:id, GET /users?email=.
import { z } from 'zod';
import { Email, Password, UserView } from './auth.js';
import { ListMeta, ListQuery } from './envelope.js';

export const UserName = z.string().trim().min(1).max(200);

export const CreateUserRequest = z.strictObject({
  email: Email,
  password: Password,
  name: UserName,
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

/**
 * PATCH /users/:id: a superadmin changes anyone's name or password; a user changes their own, and
 * changing one's own password needs `currentPassword`.
 */
export const UpdateUserRequest = z
  .strictObject({
    name: UserName.optional(),
    password: Password.optional(),
    currentPassword: z.string().min(1).max(256).optional(),
  })
  .refine((value) => value.name !== undefined || value.password !== undefined, {
    message: 'Give a name or a password',
    path: ['name'],
  });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

/** `email` narrows the list to that one address (exact, case-insensitive). */
export const UsersQuery = ListQuery.extend({ email: Email.optional() });
export type UsersQuery = z.infer<typeof UsersQuery>;

export const UserResponse = z.object({ data: UserView });
export const UserListResponse = z.object({ data: z.array(UserView), meta: ListMeta });
export type UserListResponse = z.infer<typeof UserListResponse>;
