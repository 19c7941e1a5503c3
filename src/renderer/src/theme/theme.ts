// Applies the theme setting to the document. The last choice is cached in localStorage so the first
// paint is already in the right theme; the persisted setting (core side) stays the source of truth.
import type { Theme } from '../../../shared/api/models';

const KEY = 'ic-theme';

export function resolveTheme(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = resolveTheme(theme);
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Storage may be unavailable (private mode): the setting still applies for this page.
  }
}

export function cachedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    if (v === 'light' || v === 'dark' || v === 'system') return v;
  } catch {
    // ignore: fall back to the system preference
  }
  return 'system';
}
