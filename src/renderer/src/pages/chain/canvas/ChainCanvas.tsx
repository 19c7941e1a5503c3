// The pipeline for the selected event: Client → request lane → Backend → response lane → Client, as
// `chain.order` returns it. The selected phase is in focus, the other lane dimmed. Interceptors dragged
// from the palette are dropped here to enable them. Where the view looks (a readable zoom, the selected
// node in view) is decided in ./viewport.
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Background, Controls, ReactFlow, ReactFlowProvider, useNodesInitialized, useReactFlow, useStore, type Node, type NodeChange } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { layoutChain, type InterceptorNodeData } from './layout';
import { nodeTypes } from './nodes';
import { lanes, type OrderedEntry, type Phase } from '../useChainData';
import { SKIP_LABELS } from '../skip-reasons';
import { CanvasOverrides } from './overrides-context';
import { baseViewport, reveal } from './viewport';
import type { OverrideSettings } from '../../../../../shared/config/effective-settings';

export const DRAG_MIME = 'application/x-interceptor-id';

interface Props {
  order: Record<Phase, OrderedEntry[] | undefined>;
  phase: Phase;
  event: string;
  selectedId: string | undefined;
  onSelect(id: string | undefined): void;
  onDropInterceptor(id: string): void;
  /** A mutation dragged to a new place in the lane in focus: the lane's mutations in their new order. */
  onReorder?(phase: Phase, orderedIds: string[]): void;
  backendLabel: string;
  backendDetail: string;
  editable: boolean;
  /** The shown draft's overrides: node badges say whether a value is declared or an override. */
  overrides: Record<string, OverrideSettings>;
}

export function ChainCanvas(props: Props) {
  return (
    <ReactFlowProvider>
      <CanvasOverrides.Provider value={props.overrides}>
        <Canvas {...props} />
      </CanvasOverrides.Provider>
    </ReactFlowProvider>
  );
}

function Canvas(props: Props) {
  const { order, phase, selectedId } = props;
  const layout = useMemo(
    () => layoutChain({ order, phase, selectedId, backendLabel: props.backendLabel, backendDetail: props.backendDetail }),
    [order, phase, selectedId, props.backendLabel, props.backendDetail],
  );
  const { edges } = layout;
  // React Flow drops a node's measured size whenever it is given a new node object without `measured`
  // (every layout: a selection, a query refresh), hides it, and re-measures it only if its node wrapper
  // sees its "initialized" flag flip. When the layout changes again between a measurement and the render
  // that shows it (data arriving just after the canvas mounts, as when the Chain screen loads lazily),
  // the flag never flips, the ResizeObserver has nothing new to report, and the nodes stay hidden for
  // good. So the sizes it reports are kept here and given back with every layout (controlled nodes).
  const [sizes, setSizes] = useState<ReadonlyMap<string, { width: number; height: number }>>(new Map());
  const onNodesChange = useCallback((changes: NodeChange[]) => {
    setSizes((prev) => {
      let next: Map<string, { width: number; height: number }> | undefined;
      for (const c of changes) {
        if (c.type !== 'dimensions' || !c.dimensions) continue;
        const was = prev.get(c.id);
        if (was && was.width === c.dimensions.width && was.height === c.dimensions.height) continue;
        next ??= new Map(prev);
        next.set(c.id, c.dimensions);
      }
      return next ?? prev;
    });
  }, []);
  // Mutations run one after another, so their order is theirs to change: those of the lane in focus can
  // be dragged along it (validations and sinks run in parallel; their place says nothing).
  const reorderable = useCallback(
    (n: Node) =>
      Boolean(props.onReorder) &&
      props.editable &&
      n.type === 'interceptor' &&
      (n.data as InterceptorNodeData).phase === phase &&
      (n.data as InterceptorNodeData).entry.pass === 'mutation',
    [props.onReorder, props.editable, phase],
  );
  const [dragging, setDragging] = useState<{ id: string; x: number; y: number }>();
  const nodes = useMemo(
    () =>
      layout.nodes.map((n) => {
        const measured = sizes.get(n.id);
        let node = measured ? { ...n, measured } : n;
        if (reorderable(n)) node = { ...node, draggable: true, className: 'reorderable' };
        if (dragging?.id === n.id) node = { ...node, position: { x: dragging.x, y: dragging.y } };
        return node;
      }),
    [layout.nodes, sizes, reorderable, dragging],
  );
  const onNodeDrag = useCallback((_: unknown, node: Node) => setDragging({ id: node.id, x: node.position.x, y: node.position.y }), []);
  const onNodeDragStop = useCallback(
    (_: unknown, node: Node) => {
      setDragging(undefined);
      if (!reorderable(node)) return;
      // The lane's mutations by where they now are: the request lane runs left to right, the response lane right to left.
      const lane = layout.nodes
        .filter(reorderable)
        .map((n) => ({ id: (n.data as InterceptorNodeData).entry.id, x: n.id === node.id ? node.position.x : n.position.x }));
      lane.sort((a, b) => (phase === 'request' ? a.x - b.x : b.x - a.x));
      const before = layout.nodes.filter(reorderable).map((n) => (n.data as InterceptorNodeData).entry.id);
      const after = lane.map((l) => l.id);
      if (after.join('\n') !== before.join('\n')) props.onReorder?.(phase, after);
    },
    [layout.nodes, reorderable, phase, props],
  );
  const flow = useReactFlow();
  const shape = nodes.map((n) => n.id).join('|');
  // React Flow's own measurement of its pane: place the view once it has taken the new size, not before.
  const paneWidth = useStore((st) => st.width);
  const paneHeight = useStore((st) => st.height);
  const measured = useNodesInitialized();
  const [fits, setFits] = useState(true);
  const placedFor = useRef('');
  useEffect(() => {
    if (!measured || paneWidth === 0 || paneHeight === 0 || shape === '') return;
    const t = setTimeout(() => {
      const pane = { width: paneWidth, height: paneHeight };
      let viewport = flow.getViewport();
      // A new set of nodes, a new room (the side panel opened) or the other lane in focus: place the view
      // afresh. A new selection alone only pans, keeping whatever zoom and position the user chose.
      const placement = `${shape}#${paneWidth}x${paneHeight}#${phase}`;
      if (placement !== placedFor.current) {
        placedFor.current = placement;
        const base = baseViewport(flow.getNodesBounds(shape.split('|')), pane, phase);
        viewport = base.viewport;
        setFits(base.fits);
      }
      // The selected interceptor as drawn in the lane in focus. One that does not run there (the panel says
      // why) is not chased into the other lane: the lane in focus stays in view.
      const selectedNode = selectedId && flow.getInternalNode(`${phase}:${selectedId}`) ? `${phase}:${selectedId}` : undefined;
      if (selectedNode) viewport = reveal(viewport, flow.getNodesBounds([selectedNode]), pane);
      const now = flow.getViewport();
      if (Math.abs(now.x - viewport.x) > 0.5 || Math.abs(now.y - viewport.y) > 0.5 || Math.abs(now.zoom - viewport.zoom) > 0.001) {
        void flow.setViewport(viewport, { duration: 150 });
      }
    }, 30);
    return () => clearTimeout(t);
  }, [shape, paneWidth, paneHeight, measured, phase, selectedId, flow]);
  const [dragOver, setDragOver] = useState(false);
  const skipped = lanes(order[phase]).skipped;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    const id = e.dataTransfer.getData(DRAG_MIME);
    if (id && props.editable) props.onDropInterceptor(id);
  };

  return (
    <div className="chain-canvas-wrap">
      <div
        className={`chain-canvas${dragOver ? ' drag-over' : ''}`}
        data-testid="chain-canvas"
        onDragOver={(e) => {
          if (!props.editable || !e.dataTransfer.types.includes(DRAG_MIME)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={onDrop}
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onNodeDrag={onNodeDrag}
          onNodeDragStop={onNodeDragStop}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable
          // The wheel pans (a chain wider than the pane is read by scrolling along it); pinch or Ctrl+wheel zooms.
          panOnScroll
          minZoom={0.3}
          maxZoom={1.25}
          proOptions={{ hideAttribution: true }}
          onNodeClick={(_, node: Node) => {
            if (node.type === 'interceptor') props.onSelect((node.data as InterceptorNodeData).entry.id);
          }}
          onPaneClick={() => props.onSelect(undefined)}
        >
          <Background gap={20} size={1} />
          <Controls showInteractive={false} />
        </ReactFlow>
        {dragOver && <div className="drop-hint">Drop to enable it for this gateway</div>}
      </div>
      <div className="chain-canvas-foot">
        <div className="chain-skipped" aria-label={`Not applied to ${props.event} (${phase})`}>
          <span className="muted">
            Not applied to <code>{props.event}</code> · {phase}:
          </span>
          {skipped.length === 0 && <span className="muted">none</span>}
          {skipped.map((e) => (
            <button
              key={e.id}
              type="button"
              className="chip dimmed"
              data-testid={`skipped-${e.id}`}
              data-reason={e.skipped}
              title={`${SKIP_LABELS[e.skipped ?? ''] ?? e.skipped}${e.skipDetail ? `: ${e.skipDetail}` : ''}`}
              onClick={() => props.onSelect(e.id)}
            >
              {e.id} <span className="reason">{SKIP_LABELS[e.skipped ?? ''] ?? e.skipped}</span>
            </button>
          ))}
        </div>
        {/* Below the canvas, not over it: at a readable zoom the drawing reaches every edge of the pane. */}
        <div className="lane-legend" aria-hidden>
          <span className="lane-tag request">request lane</span>
          <span className="lane-tag response">response lane</span>
          {!fits && (
            <span className="lane-tag" data-testid="canvas-pan-hint">
              scroll or drag to see the whole chain
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
