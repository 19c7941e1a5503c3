// Words for the engine's skip reasons (src/shared/trace/types.ts SkipReason), as the Chain screen shows them.
export const SKIP_LABELS: Record<string, string> = {
  'event-not-hooked': 'event not hooked',
  'other-phase': 'other phase',
  disabled: 'disabled',
  compat: 'compat range',
  'discovery-failed': 'discovery failed',
  'config-invalid': 'config error',
};

/** One sentence for a hover: why this interceptor does not run for the selected event and phase. */
export function skipExplanation(reason: string | undefined, detail: string | undefined, event: string, phase: string): string {
  switch (reason) {
    case 'event-not-hooked':
      return `Does not apply: none of its hooks covers ${event}${detail ? ` (${detail})` : ''}.`;
    case 'other-phase':
      return `Does not apply here: it hooks ${event} only in the ${phase === 'request' ? 'response' : 'request'} phase.`;
    case 'disabled':
      return 'Disabled by an override (enabled: false). Drag it onto the canvas or tick "Enabled" to turn it on.';
    case 'compat':
      return `Skipped for the selected protocol version: ${detail ?? 'its compat range excludes it'}.`;
    case 'discovery-failed':
      return `Its server failed discovery${detail ? `: ${detail}` : ''}.`;
    case 'config-invalid':
      return `Configuration error: ${detail ?? 'its configSchema requires a config and none is set'}.`;
    default:
      return reason ? `${reason}${detail ? `: ${detail}` : ''}` : '';
  }
}
