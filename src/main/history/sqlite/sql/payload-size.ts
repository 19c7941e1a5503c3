// Payloads at least this long (in UTF-16 code units) are stored once across the whole file, by
// content hash; shorter ones are stored once per execution, inline, where hashing and an index
// lookup would cost more than the bytes they save.
export const LARGE_PAYLOAD_CHARS = 4096;

/** A line of execution_details.bodies that stands for payloads.id = n. */
export const LARGE_PAYLOAD_MARK = '#';
