// Small line icons for the rail (16px, currentColor).
import type { ReactElement } from 'react';
import type { Route } from './router';

const p = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const routeIcons: Record<Route, ReactElement> = {
  tests: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <rect x="2.5" y="2.5" width="11" height="11" rx="1.5" />
      <path d="M5 8.2 7 10.2 11 5.8" />
    </svg>
  ),
  gateways: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <rect x="2" y="3" width="12" height="4" rx="1" />
      <rect x="2" y="9" width="12" height="4" rx="1" />
      <path d="M5 5h.01M5 11h.01" />
    </svg>
  ),
  chain: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <circle cx="3.5" cy="8" r="1.8" />
      <circle cx="12.5" cy="4" r="1.8" />
      <circle cx="12.5" cy="12" r="1.8" />
      <path d="M5.2 7.2 10.8 4.8M5.2 8.8l5.6 2.4" />
    </svg>
  ),
  playground: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <path d="M5 3.5v9l7-4.5z" />
    </svg>
  ),
  traffic: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <path d="M2 5h9M8 2l3 3-3 3M14 11H5M8 8l-3 3 3 3" />
    </svg>
  ),
  messages: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <path d="M2.5 4h11M2.5 8h11M2.5 12h7" />
      <path d="M12 10.5 14 12l-2 1.5" />
    </svg>
  ),
  paused: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <circle cx="8" cy="8" r="6" />
      <path d="M6.5 5.5v5M9.5 5.5v5" />
    </svg>
  ),
  sinks: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <path d="M3 3h10l-4 5v5l-2-1V8z" />
    </svg>
  ),
  settings: (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" {...p}>
      <circle cx="8" cy="8" r="2.2" />
      <path d="M8 1.8v2M8 12.2v2M1.8 8h2M12.2 8h2M3.6 3.6l1.4 1.4M11 11l1.4 1.4M3.6 12.4 5 11M11 5l1.4-1.4" />
    </svg>
  ),
};

export function Logo() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <rect width="20" height="20" rx="5" fill="#2563eb" />
      <path d="M4 10h4M12 10h4" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      <rect x="8" y="6" width="4" height="8" rx="1.2" fill="none" stroke="#fff" strokeWidth="1.6" />
    </svg>
  );
}
