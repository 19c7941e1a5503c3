// Redaction at rest as Settings sets it while the console runs. A recorder is made once, when its store
// opens, and the setting changes later: the recorder is given `delegate`, which applies whatever redactor
// is in force when each record is written, so a new setting applies to the next record without reopening.
import { createRedactor, type Redactor } from './redactor';

export class RedactionSetting {
  private current: Redactor | undefined;

  constructor(paths: string[] = []) {
    this.set(paths);
  }

  /** Throws RedactionPathError for a path it cannot parse, and then keeps the setting it had. */
  set(paths: string[]): void {
    this.current = createRedactor({ paths });
  }

  /** The redactor in force (imports apply it too); undefined when nothing is redacted. */
  get redactor(): Redactor | undefined {
    return this.current;
  }

  readonly delegate: Redactor = {
    execution: (record) => (this.current ? this.current.execution(record) : record),
    message: (record) => (this.current?.message ? this.current.message(record) : record),
  };
}
