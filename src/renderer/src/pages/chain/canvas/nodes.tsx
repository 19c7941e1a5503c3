// The canvas' node types: the client and backend endpoints, an interceptor with its badges (type, mode
// with audit drawn as a dashed "shadow" node, failOpen, priority, timeout), and a parallel group.
import { useSettingSources } from './overrides-context';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import type { EndpointNodeData, GroupNodeData, InterceptorNodeData } from './layout';

const hidden = { opacity: 0 };

function Handles({ sides }: { sides: ('target-left' | 'source-right' | 'source-left' | 'target-right' | 'source-bottom')[] }) {
  return (
    <>
      {sides.map((id) => {
        const [type, side] = id.split('-') as ['source' | 'target', 'left' | 'right' | 'bottom'];
        const position = side === 'left' ? Position.Left : side === 'right' ? Position.Right : Position.Bottom;
        return <Handle key={id} id={id} type={type} position={position} style={hidden} isConnectable={false} />;
      })}
    </>
  );
}

export function EndpointNode({ data }: NodeProps<Node<EndpointNodeData>>) {
  const sides =
    data.role === 'client-out'
      ? (['source-right'] as const)
      : data.role === 'client-in'
        ? (['target-right'] as const)
        : (['target-left', 'source-bottom'] as const);
  return (
    <div className={`chain-endpoint ${data.role}`} data-testid={`chain-endpoint-${data.role}`}>
      <Handles sides={[...sides]} />
      <div className="label">{data.label}</div>
      <div className="detail" title={data.detail}>
        {data.detail}
      </div>
    </div>
  );
}

export function GroupNode({ data }: NodeProps<Node<GroupNodeData>>) {
  const sides = data.phase === 'request' ? (['target-left', 'source-right'] as const) : (['target-right', 'source-left'] as const);
  return (
    <div className={`chain-group${data.dimmed ? ' dimmed' : ''}`}>
      <Handles sides={[...sides]} />
      <div className="chain-group-label">{data.label}</div>
    </div>
  );
}

/** An override is marked on the badge itself; a declared value is the unmarked default (its title says so). */
function mark(source: 'declared' | 'override') {
  return source === 'override' ? <span className="override-mark"> · override</span> : null;
}

export function InterceptorNode({ data, parentId }: NodeProps<Node<InterceptorNodeData>>) {
  const e = data.entry;
  const sources = useSettingSources(e.id);
  const audit = e.mode === 'audit';
  const sides = parentId ? [] : data.phase === 'request' ? (['target-left', 'source-right'] as const) : (['target-right', 'source-left'] as const);
  const classes = ['chain-node', `type-${e.type}`, audit ? 'audit' : '', data.dimmed ? 'dimmed' : '', data.selected ? 'selected' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      data-testid={`chain-node-${data.phase}-${e.id}`}
      data-step={data.step}
      data-mode={e.mode ?? 'active'}
      title={audit ? 'Audit mode: runs and is recorded as a shadow result, never blocks or changes the payload' : undefined}
    >
      <Handles sides={[...sides]} />
      <div className="chain-node-head">
        {e.pass === 'mutation' && (
          <span className="step" aria-label={`step ${data.step}`}>
            {data.step}
          </span>
        )}
        <span className="name">{e.name}</span>
      </div>
      <div className="node-server">{e.server}</div>
      <div className="badges">
        <span className={`badge type ${e.type}`}>{e.type}</span>
        <span
          className={`badge mode ${audit ? 'audit' : 'active'}`}
          data-source={sources.mode.source}
          title={`${audit ? 'audit' : 'active'} mode (${sources.mode.source})`}
        >
          {audit ? 'audit · shadow' : 'active'}
          {mark(sources.mode.source)}
        </span>
        <span
          className={`badge ${e.failOpen ? 'open' : 'closed'}`}
          data-source={sources.failOpen.source}
          title={`${e.failOpen ? 'an error or timeout is skipped' : 'an error or timeout blocks'} (${sources.failOpen.source})`}
        >
          {e.failOpen ? 'fail-open' : 'fail-closed'}
          {mark(sources.failOpen.source)}
        </span>
        {e.pass === 'mutation' && (
          <span className="badge prio" data-source={sources.priority[data.phase].source} title={`priority (${sources.priority[data.phase].source})`}>
            prio {e.priority}
            {mark(sources.priority[data.phase].source)}
          </span>
        )}
        {e.timeoutMs !== undefined && <span className="badge timeout">{e.timeoutMs} ms</span>}
      </div>
    </div>
  );
}

export const nodeTypes = { endpoint: EndpointNode, 'group-lane': GroupNode, interceptor: InterceptorNode };
