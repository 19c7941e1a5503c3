import { Placeholder } from '../../components/Placeholder';

export function ChainPage() {
  return <Placeholder title="Chain" description="The visual chain designer: the pipeline for an event and phase, in the order the engine runs it." />;
}
