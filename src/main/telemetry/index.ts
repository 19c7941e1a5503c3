export { OtelTelemetry, type ExecutionTelemetry } from './otel-telemetry';
export { resolveTelemetryOptions, type TelemetryOptions } from './options';
