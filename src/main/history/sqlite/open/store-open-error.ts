// Why a history file could not be opened, phrased for the person who has to act on it.
export type StoreOpenErrorKind = 'missing' | 'not-a-file' | 'not-sqlite' | 'foreign' | 'corrupt' | 'newer' | 'read-only' | 'io';

export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(
    readonly kind: StoreOpenErrorKind,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}
