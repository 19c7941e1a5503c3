/** A filter or cursor the caller got wrong (the CLI turns it into a usage error). */
export class QueryError extends Error {
  override name = 'QueryError';
}
