// Renders what an MCP server returned: content blocks (text, image, audio, embedded resource, resource
// link), structured content, prompt messages and resource contents. Binary data is shown from its
// base64 as a data URL (never fetched), so nothing leaves the console.
import { CodeBlock } from '../../../components/CodeBlock';

type Block = Record<string, unknown> & { type?: string };

export function ResultView({ result }: { result: Record<string, unknown> }) {
  const content = result.content as Block[] | undefined;
  const messages = result.messages as { role: string; content: Block }[] | undefined;
  const contents = result.contents as Block[] | undefined;
  return (
    <div className="result-view" aria-label="Call result">
      {result.isError === true && (
        <div className="banner error" role="alert">
          {/* Not "the tool reported": a gateway's chain refusing the call answers with isError too. */}
          The result says isError: true: the tool failed, or a gateway refused the call (the content says which).
        </div>
      )}
      {Array.isArray(content) && content.map((b, i) => <ContentBlock key={i} block={b} />)}
      {result.structuredContent !== undefined && (
        <div className="block">
          <h4>Structured content</h4>
          <CodeBlock label="Structured content" text={JSON.stringify(result.structuredContent, null, 2)} />
        </div>
      )}
      {Array.isArray(messages) &&
        messages.map((m, i) => (
          <div className="block message" key={i}>
            <h4>{m.role}</h4>
            <ContentBlock block={m.content} />
          </div>
        ))}
      {Array.isArray(contents) && contents.map((c, i) => <ResourceContents key={i} contents={c} />)}
      <details className="pg-details">
        <summary>Raw result</summary>
        <CodeBlock label="Raw result" text={JSON.stringify(result, null, 2)} />
      </details>
    </div>
  );
}

function ContentBlock({ block }: { block: Block }) {
  switch (block.type) {
    case 'text':
      return (
        <pre className="block text" aria-label="Text content">
          {String(block.text ?? '')}
        </pre>
      );
    case 'image':
      return (
        <figure className="block image">
          <img alt={`Image content (${String(block.mimeType)})`} src={`data:${String(block.mimeType)};base64,${String(block.data)}`} />
          <figcaption className="muted">{String(block.mimeType)}</figcaption>
        </figure>
      );
    case 'audio':
      return (
        <figure className="block audio">
          <audio controls aria-label={`Audio content (${String(block.mimeType)})`} src={`data:${String(block.mimeType)};base64,${String(block.data)}`} />
          <figcaption className="muted">{String(block.mimeType)}</figcaption>
        </figure>
      );
    case 'resource':
      return (
        <div className="block embedded">
          <h4>Embedded resource</h4>
          <ResourceContents contents={block.resource as Block} />
        </div>
      );
    case 'resource_link':
      return (
        <div className="block link">
          <h4>Resource link</h4>
          <code>{String(block.uri)}</code> {block.name ? <span className="muted">{String(block.name)}</span> : null}
        </div>
      );
    default:
      return <CodeBlock label={`${String(block.type ?? 'unknown')} content`} text={JSON.stringify(block, null, 2)} />;
  }
}

function ResourceContents({ contents }: { contents: Block }) {
  const mime = String(contents.mimeType ?? '');
  return (
    <div className="block resource">
      <div className="muted">
        <code>{String(contents.uri ?? '')}</code> {mime}
      </div>
      {typeof contents.text === 'string' && <pre className="text">{contents.text}</pre>}
      {typeof contents.blob === 'string' &&
        (mime.startsWith('image/') ? (
          <img alt={`Resource ${String(contents.uri)}`} src={`data:${mime};base64,${contents.blob}`} />
        ) : (
          <div className="muted">Binary ({Math.round((contents.blob.length * 3) / 4)} bytes, base64)</div>
        ))}
    </div>
  );
}
