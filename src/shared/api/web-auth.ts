// The names web mode's page and server agree on for carrying the run's token (see src/main/security/request-guard.ts).

/** The WebSocket subprotocol the page speaks and the server answers with. */
export const WS_PROTOCOL = 'ic.v1';
/** The page also offers `bearer.<token>`: a browser cannot set headers on a WebSocket. Never echoed back. */
export const WS_TOKEN_PROTOCOL_PREFIX = 'bearer.';
