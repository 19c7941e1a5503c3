// Where the canvas looks. The chain is drawn at a zoom where its smallest text (11 px) stays readable: it
// is fitted into the pane only when it fits at that zoom or larger; a chain too big for the pane is shown
// at the readable zoom from where the lane in focus starts (the client for the request lane, the backend
// for the response lane), and the user pans to the rest. The selected node is always panned into view, so
// the side panel, which takes room beside the canvas, never hides it.
import type { Phase } from '../useChainData';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}
export interface Pane {
  width: number;
  height: number;
}

/** The smallest zoom the canvas picks by itself: its smallest text is 11 px, so 11 px on screen. */
export const READABLE_ZOOM = 1;
/** Room kept between the drawing and the pane's edges, in screen pixels. */
export const PANE_PADDING = 24;

/** The viewport showing `bounds` (flow coordinates) as a whole when it fits at a readable zoom. */
export function baseViewport(bounds: Rect, pane: Pane, phase: Phase, maxZoom = 1): { viewport: Viewport; fits: boolean } {
  const roomW = Math.max(1, pane.width - 2 * PANE_PADDING);
  const roomH = Math.max(1, pane.height - 2 * PANE_PADDING);
  const fitZoom = Math.min(roomW / Math.max(1, bounds.width), roomH / Math.max(1, bounds.height), maxZoom);
  const fits = fitZoom >= READABLE_ZOOM;
  const zoom = fits ? fitZoom : READABLE_ZOOM;
  const w = bounds.width * zoom;
  const h = bounds.height * zoom;
  // Along an axis that fits: centred. Along one that does not: the start of the lane in focus.
  const x =
    w <= roomW
      ? (pane.width - w) / 2 - bounds.x * zoom
      : phase === 'request'
        ? PANE_PADDING - bounds.x * zoom
        : pane.width - PANE_PADDING - (bounds.x + bounds.width) * zoom;
  const y =
    h <= roomH
      ? (pane.height - h) / 2 - bounds.y * zoom
      : phase === 'request'
        ? PANE_PADDING - bounds.y * zoom
        : pane.height - PANE_PADDING - (bounds.y + bounds.height) * zoom;
  return { viewport: { x, y, zoom }, fits };
}

/** `viewport` moved as little as needed for `rect` (flow coordinates) to lie inside the pane. */
export function reveal(viewport: Viewport, rect: Rect, pane: Pane): Viewport {
  const shift = (start: number, size: number, room: number) => {
    const pad = Math.min(PANE_PADDING, Math.max(0, (room - size) / 2));
    if (size + 2 * pad > room || start < pad) return pad - start; // too big: show its start
    if (start + size > room - pad) return room - pad - (start + size);
    return 0;
  };
  const left = rect.x * viewport.zoom + viewport.x;
  const top = rect.y * viewport.zoom + viewport.y;
  return {
    zoom: viewport.zoom,
    x: viewport.x + shift(left, rect.width * viewport.zoom, pane.width),
    y: viewport.y + shift(top, rect.height * viewport.zoom, pane.height),
  };
}
