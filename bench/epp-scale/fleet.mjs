// Child process of run.mjs: the simulated vLLM pods (the simulator's live fleet), each serving the
// simulator's vLLM /metrics exposition. Runs in its own process so its CPU is not the EPP's.
import { startFleet } from '@switchyard/simulator';

const pods = Number(process.env.PODS ?? 100);
const fleet = await startFleet({ pods, host: '127.0.0.1', metricsExposition: process.env.EXPOSITION === 'modelled' ? 'modelled' : 'full', metricsCacheMs: 1000 });
process.send({ ready: true, endpoints: fleet.endpoints.map((e) => e.address) });
process.on('message', async (m) => {
  if (m.cmd === 'close') {
    await fleet.close();
    process.exit(0);
  }
});
