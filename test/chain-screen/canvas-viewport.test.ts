// Where the Chain canvas looks (src/renderer/src/pages/chain/canvas/viewport.ts): never below the readable
// zoom by itself, the start of the lane in focus when the chain is bigger than the pane, and the selected
// node moved into the pane as little as needed.
import { describe, expect, it } from 'vitest';
import { baseViewport, PANE_PADDING, READABLE_ZOOM, reveal } from '../../src/renderer/src/pages/chain/canvas/viewport';

describe('chain canvas viewport', () => {
  it('fits a chain that fits at a readable zoom, centred, never zoomed in beyond 1', () => {
    const { viewport, fits } = baseViewport({ x: 0, y: 0, width: 400, height: 200 }, { width: 800, height: 600 }, 'request');
    expect(fits).toBe(true);
    expect(viewport).toEqual({ x: 200, y: 200, zoom: 1 });
  });

  it('keeps a chain too big for the pane at the readable zoom, from where the lane in focus starts', () => {
    const bounds = { x: 0, y: 0, width: 1400, height: 900 };
    const pane = { width: 650, height: 700 };
    const request = baseViewport(bounds, pane, 'request');
    expect(request.fits).toBe(false);
    expect(request.viewport).toEqual({ x: PANE_PADDING, y: PANE_PADDING, zoom: READABLE_ZOOM });
    // The response lane starts at the backend (right) and runs along the bottom row.
    const response = baseViewport(bounds, pane, 'response');
    expect(response.viewport).toEqual({ x: 650 - PANE_PADDING - 1400, y: 700 - PANE_PADDING - 900, zoom: 1 });
  });

  it('pans a node beyond the right edge just into view, and leaves a visible one alone', () => {
    const pane = { width: 650, height: 700 };
    const start = { x: 24, y: 24, zoom: 1 };
    const moved = reveal(start, { x: 900, y: 30, width: 196, height: 110 }, pane);
    expect(moved).toEqual({ x: 650 - PANE_PADDING - 1096, y: 24, zoom: 1 });
    expect(reveal(start, { x: 100, y: 30, width: 196, height: 110 }, pane)).toEqual(start);
    // Left of the pane: its left edge comes to the padding.
    expect(reveal({ x: -800, y: 24, zoom: 1 }, { x: 100, y: 30, width: 196, height: 110 }, pane).x).toBe(PANE_PADDING - 100);
  });
});
