// Places the engine's plan on the canvas: the request lane left to right on the top row, the backend at
// the far right, the response lane right to left on the bottom row. Positions only: WHICH interceptors
// run and in WHAT order is taken from `chain.order` as is.
import { MarkerType, type Edge, type Node } from '@xyflow/react';
import { lanes, type OrderedEntry, type Phase } from '../useChainData';

export const NODE_W = 196;
// Tall enough for three rows of 11 px badges (type, mode, failOpen, priority, timeout) in a node's width.
export const NODE_H = 110;
const GROUP_PAD = 8;
const GROUP_HEAD = 24;
const GAP_X = 28;
/** One column slot: wide enough for a parallel group (a node plus its padding). */
const STEP = NODE_W + 2 * GROUP_PAD + GAP_X;
const CLIENT_W = 120;
const ROW_GAP = 64;

export interface InterceptorNodeData extends Record<string, unknown> {
  entry: OrderedEntry;
  phase: Phase;
  /** 1-based position in its pass (mutations run in this order; validations/sinks are parallel). */
  step: number;
  dimmed: boolean;
  selected: boolean;
}
export interface GroupNodeData extends Record<string, unknown> {
  label: string;
  phase: Phase;
  dimmed: boolean;
}
export interface EndpointNodeData extends Record<string, unknown> {
  label: string;
  detail: string;
  role: 'client-out' | 'client-in' | 'backend';
}

type Col = { kind: 'single'; entry: OrderedEntry; step: number } | { kind: 'group'; label: string; pass: string; entries: OrderedEntry[] };

function columns(phase: Phase, entries: OrderedEntry[] | undefined): Col[] {
  const l = lanes(entries);
  const muts: Col[] = l.mutations.map((entry, i) => ({ kind: 'single', entry, step: i + 1 }));
  const vals: Col[] = l.validations.length ? [{ kind: 'group', label: 'Validations · parallel', pass: 'validation', entries: l.validations }] : [];
  const sinks: Col[] = l.sinks.length ? [{ kind: 'group', label: 'Sinks · parallel', pass: 'sink', entries: l.sinks }] : [];
  // A2: request = mutations → validations → sinks; response = validations → sinks → mutations.
  return phase === 'request' ? [...muts, ...vals, ...sinks] : [...vals, ...sinks, ...muts];
}

function groupHeight(n: number): number {
  return GROUP_HEAD + n * (NODE_H + GROUP_PAD) + GROUP_PAD;
}

export function layoutChain(options: {
  order: Record<Phase, OrderedEntry[] | undefined>;
  phase: Phase;
  selectedId: string | undefined;
  backendLabel: string;
  backendDetail: string;
}): { nodes: Node[]; edges: Edge[] } {
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const req = columns('request', options.order.request);
  const res = columns('response', options.order.response);
  const width = Math.max(req.length, res.length);
  const reqHeight = Math.max(NODE_H, ...req.map((c) => (c.kind === 'group' ? groupHeight(c.entries.length) : NODE_H)));
  const resTop = reqHeight + ROW_GAP;
  const slotX = (slot: number) => CLIENT_W + GAP_X + slot * STEP;
  const backendX = slotX(width);

  nodes.push(endpoint('client-out', 'Client', 'sends the request', 0, 0));
  nodes.push(endpoint('backend', options.backendLabel, options.backendDetail, backendX, 0));
  nodes.push(endpoint('client-in', 'Client', 'receives the response', 0, resTop));

  const place = (phase: Phase, cols: Col[], y: number, xOf: (i: number) => number, from: string, to: string) => {
    const dimmed = phase !== options.phase;
    let prev = from;
    cols.forEach((col, i) => {
      const x = xOf(i);
      let nodeId: string;
      if (col.kind === 'single') {
        nodeId = `${phase}:${col.entry.id}`;
        nodes.push(interceptorNode(nodeId, col.entry, phase, col.step, dimmed, options.selectedId, x + GROUP_PAD, y));
      } else {
        nodeId = `${phase}:group:${col.pass}`;
        nodes.push({
          id: nodeId,
          type: 'group-lane',
          position: { x, y },
          data: { label: col.label, phase, dimmed } satisfies GroupNodeData,
          style: { width: NODE_W + 2 * GROUP_PAD, height: groupHeight(col.entries.length) },
          selectable: false,
          draggable: false,
        });
        col.entries.forEach((entry, k) => {
          const child = interceptorNode(
            `${phase}:${entry.id}`,
            entry,
            phase,
            k + 1,
            dimmed,
            options.selectedId,
            GROUP_PAD,
            GROUP_HEAD + k * (NODE_H + GROUP_PAD),
          );
          nodes.push({ ...child, parentId: nodeId, extent: 'parent' });
        });
      }
      edges.push(edge(prev, nodeId, phase, dimmed));
      prev = nodeId;
    });
    edges.push(edge(prev, to, phase, dimmed));
  };
  // Both lanes share one grid of slots; the response lane fills it from the backend back to the client.
  place('request', req, 0, (i) => slotX(i), 'client-out', 'backend');
  place('response', res, resTop, (i) => slotX(width - 1 - i), 'backend', 'client-in');
  return { nodes, edges };
}

function endpoint(id: EndpointNodeData['role'], label: string, detail: string, x: number, y: number): Node {
  return { id, type: 'endpoint', position: { x, y }, data: { label, detail, role: id } satisfies EndpointNodeData, draggable: false, selectable: false };
}

function interceptorNode(
  id: string,
  entry: OrderedEntry,
  phase: Phase,
  step: number,
  dimmed: boolean,
  selectedId: string | undefined,
  x: number,
  y: number,
): Node {
  return {
    id,
    type: 'interceptor',
    position: { x, y },
    data: { entry, phase, step, dimmed, selected: entry.id === selectedId } satisfies InterceptorNodeData,
    draggable: false,
    style: { width: NODE_W, height: NODE_H },
  };
}

function edge(source: string, target: string, phase: Phase, dimmed: boolean): Edge {
  return {
    id: `${phase}:${source}->${target}`,
    source,
    target,
    type: 'smoothstep',
    animated: !dimmed,
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
    className: dimmed ? 'lane-dimmed' : undefined,
    // Request lane flows left to right; the response lane leaves the backend downwards and flows back left.
    sourceHandle: source === 'backend' ? 'source-bottom' : phase === 'request' ? 'source-right' : 'source-left',
    targetHandle: phase === 'request' ? 'target-left' : 'target-right',
  };
}
