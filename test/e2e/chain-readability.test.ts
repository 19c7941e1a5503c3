// The Chain canvas is readable at 1440×900 without zooming, in a real Chromium against web mode (the demo
// gateway: server-everything behind the sample interceptors). Measured the way the eye sees it: every text
// on the canvas is at least 11 px on screen (computed font size × the canvas' zoom); the selected node is
// panned into view and never lies under the side panel; a save whose status is long ("Saved … hot-reloaded,
// sessions kept") leaves the toolbar's height, and so the canvas, where they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED chain readability browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, outer: Box) =>
  a.x >= outer.x - 0.5 && a.y >= outer.y - 0.5 && a.x + a.width <= outer.x + outer.width + 0.5 && a.y + a.height <= outer.y + outer.height + 0.5;

/** The smallest on-screen text size on the canvas: each element's own text × the zoom of the canvas. */
function smallestCanvasText(page: Page) {
  return page.evaluate(() => {
    const viewport = document.querySelector('.react-flow__viewport');
    if (!viewport) return { px: 0, zoom: 0, text: 'no canvas', count: 0 };
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    let smallest = { px: Infinity, zoom, text: '', count: 0 };
    for (const el of viewport.querySelectorAll('.react-flow__node *')) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!own) continue;
      smallest.count++;
      const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
      if (px < smallest.px) smallest = { ...smallest, px, text: own };
    }
    return smallest;
  });
}

describe.skipIf(!haveChromium)('Chain canvas readability at 1440×900 (web mode, Chromium)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;

  beforeAll(async () => {
    session = await openConsole();
    ({ page } = session);
    await page.evaluate(() => (location.hash = '#/chain/demo'));
    await page.getByTestId('chain-node-request-samples/request-logger').waitFor({ timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('draws every text of every node at 11 px or more on screen', async () => {
    // The view is placed once React Flow has measured the nodes, and the interceptor nodes arrive with
    // discovery: wait until the canvas holds all of them at its settled zoom (a loaded machine measured a
    // half-drawn canvas once), then hold every text to 11 px.
    let smallest = await smallestCanvasText(page);
    await expect
      .poll(
        async () => {
          smallest = await smallestCanvasText(page);
          return smallest.count > 40 && smallest.px >= 11;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    // Badges, server names, group labels, endpoint details: dozens of texts were measured, not a handful.
    expect(smallest.count).toBeGreaterThan(40);
    expect(smallest.px, `smallest text "${smallest.text}" at zoom ${smallest.zoom}`).toBeGreaterThanOrEqual(11);
    for (const badge of await page.getByTestId('chain-node-request-samples/email-redactor').locator('.badge').all()) {
      expect(await badge.isVisible()).toBe(true);
    }
  });

  it('pans the selected node into view beside the side panel, never under it', async () => {
    const canvas = page.getByTestId('chain-canvas');
    const panel = page.getByTestId('chain-panel');
    // The sink is the last column of the request lane: at a readable zoom it starts out beyond the right
    // edge, and opening the panel takes more room still.
    for (const name of ['request-logger', 'secretless-redactor', 'tool-allowlist']) {
      await page.getByTestId(`palette-item-samples/${name}`).click();
      await panel.getByText(name, { exact: true }).first().waitFor();
      const node = page.getByTestId(`chain-node-request-samples/${name}`);
      await expect
        .poll(
          async () => {
            const [n, c] = [await node.boundingBox(), await canvas.boundingBox()];
            return n && c ? inside(n, c) : false;
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      const [n, p] = [await node.boundingBox(), await panel.boundingBox()];
      expect(intersects(n!, p!), `${name} ${JSON.stringify(n)} under the panel ${JSON.stringify(p)}`).toBe(false);
      // A person can click it where it is drawn (nothing covers it).
      await node.click({ trial: true, timeout: 15_000 });
    }
    expect((await smallestCanvasText(page)).px).toBeGreaterThanOrEqual(11);
  });

  it('keeps the toolbar one height when a save reports a long status, with the full text in its title', async () => {
    const toolbar = page.locator('.chain-toolbar');
    const canvas = page.getByTestId('chain-canvas');
    const before = { toolbar: (await toolbar.boundingBox())!.height, canvasTop: (await canvas.boundingBox())!.y };
    // An edit in the side panel, saved: the running gateway hot-reloads it.
    await page.getByTestId('palette-item-samples/tool-allowlist').click();
    await page.getByTestId('chain-panel').getByLabel('Timeout (ms)').fill('2500');
    await page.getByTestId('chain-panel').getByLabel('Timeout (ms)').press('Enter');
    const status = page.getByTestId('save-status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('Unsaved changes');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Saved .* · hot-reloaded, sessions kept$/);
    expect((await toolbar.boundingBox())!.height).toBe(before.toolbar);
    expect((await canvas.boundingBox())!.y).toBe(before.canvasTop);
    expect(await status.getAttribute('title')).toBe(await status.textContent());
  });
});
