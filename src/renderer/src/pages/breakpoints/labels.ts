// Words and a clock shared by the Paused screen's parts.
import { useEffect, useState } from 'react';

export const POINT_LABEL: Record<string, string> = {
  'request-before-chain': 'request, before the chain',
  'request-after-chain': 'request, after the chain (before the backend)',
  'response-before-chain': 'response, before the chain',
  'response-after-chain': 'response, after the chain (before the client)',
  'before-interceptor': 'stepping, before',
};

/** Whole seconds until `deadline`, ticking once a second (never below 0). */
export function useCountdown(deadline: string): number {
  const compute = () => Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  const [left, setLeft] = useState(compute);
  useEffect(() => {
    const timer = setInterval(() => setLeft(compute()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return left;
}
