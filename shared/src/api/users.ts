// User administration contracts: POST /users, GET /users?email=.
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

/** `email` narrows the list to that one address (exact, case-insensitive). */
export const UsersQuery = ListQuery.extend({ email: Email.optional() });
export type UsersQuery = z.infer<typeof UsersQuery>;

export const UserResponse = z.object({ data: UserView });
export const UserListResponse = z.object({ data: z.array(UserView), meta: ListMeta });
export type UserListResponse = z.infer<typeof UserListResponse>;
