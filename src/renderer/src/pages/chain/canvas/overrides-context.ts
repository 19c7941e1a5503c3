// The overrides of the draft the canvas shows, for its nodes to label each badge "declared" or "override"
// (the values themselves come from the chain planner, which computes them with the same function).
import { createContext, useContext } from 'react';
import { effectiveSettings, type EffectiveSettings, type OverrideSettings } from '../../../../../shared/config/effective-settings';

export const CanvasOverrides = createContext<Record<string, OverrideSettings>>({});

/** Where each of an interceptor's settings comes from (only the sources are read from this). */
export function useSettingSources(id: string): EffectiveSettings {
  return effectiveSettings(undefined, useContext(CanvasOverrides)[id]);
}
