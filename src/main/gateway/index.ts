// Public API of the gateway (Electron-free): run one gateway in process, or several via a manager.
export { Gateway } from './gateway';
export type { GatewayCounters, GatewayEvents, GatewayOptions, GatewayState, GatewayStatus } from './gateway';
export { Backend, BackendStartError } from './backend/backend';
export { blockText, blockedResponse } from './session/blocked';
export { coerceToolSchemas, mirrorInitializeResult } from './session/exchange';
