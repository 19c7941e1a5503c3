// OAuth of the built-in client (HTTP servers that answer 401 with MCP authorization): an authorization
// waiting for the user to finish it in the browser, and how long the console waits for that.
import { z } from 'zod';

export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;
export const MAX_AUTHORIZATION_TIMEOUT_MS = 30 * 60_000;

export const AuthorizationTimeoutSchema = z.number().int().min(1_000).max(MAX_AUTHORIZATION_TIMEOUT_MS);

/** A connect waiting for the user to authorize it at the authorization server. */
export const ClientAuthorizationSchema = z.object({
  /** Cancels it (client.cancelAuthorization); the session's id once connected. */
  authorizationId: z.string(),
  /** The server being connected to, for people. */
  label: z.string(),
  /** Where the user signs in and allows access; the browser comes back to the console's loopback callback. */
  authorizationUrl: z.string(),
  startedAt: z.string(),
  /** After this the connect fails with a message saying what to do. */
  expiresAt: z.string(),
});
export type ClientAuthorization = z.infer<typeof ClientAuthorizationSchema>;
