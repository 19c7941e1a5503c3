// A clean page for screens a later release fills in.
export function Placeholder({ title, description }: { title: string; description: string }) {
  return (
    <div className="page placeholder">
      <div className="page-head">
        <div>
          <h1>{title}</h1>
          <div className="sub">{description}</div>
        </div>
      </div>
      <div className="empty">This screen arrives in a later release.</div>
    </div>
  );
}
