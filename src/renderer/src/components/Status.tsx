const LABEL: Record<string, string> = {
  running: 'Running',
  starting: 'Starting',
  stopping: 'Stopping',
  stopped: 'Stopped',
  failed: 'Failed',
  connected: 'Connected',
  pending: 'Connecting',
};

export function Status({ status }: { status: string }) {
  return (
    <span className={`status ${status}`} role="status">
      {LABEL[status] ?? status}
    </span>
  );
}
