import OpenAI from 'openai';
import { materializePrompt, type RequestRecord, type Workload, type WorkloadItem } from '@switchyard/simulator';

/**
 * Options of {@link driveWorkload}.
 */
export interface DriveOptions {
  /** Gateway base URL (`http://host:port`). */
  readonly url: string;
  /** Model name the pods serve. */
  readonly model: string;
  /** The workload; its times are model time. */
  readonly workload: Workload;
  /** Model time runs this many times faster than real time (arrivals and think times are divided by it). */
  readonly timeScale: number;
  /** Called after every finished request with (done, total, errors). */
  readonly onProgress?: (done: number, total: number, errors: number) => void;
}

/**
 * Sends every workload item through the gateway with the official `openai` client (streamed
 * completions on token-id prompts, usage included), honouring closed-loop dependencies: an item
 * with `after` is sent `delayMs` after that item finished. Times in the records are real ms from
 * the start of the run.
 */
export async function driveWorkload(o: DriveOptions): Promise<RequestRecord[]> {
  const client = new OpenAI({ baseURL: `${o.url}/v1`, apiKey: 'demo', maxRetries: 0, timeout: 120_000 });
  const items = o.workload.items;
  const byId = new Map(items.map((i) => [i.id, i]));
  const waiting = new Map<string, WorkloadItem[]>();
  for (const item of items) if (item.after !== undefined && byId.has(item.after)) waiting.set(item.after, [...(waiting.get(item.after) ?? []), item]);
  const start = performance.now();
  const now = (): number => performance.now() - start;
  const records: RequestRecord[] = [];
  let errors = 0;
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

  const send = async (item: WorkloadItem): Promise<void> => {
    const arrivalMs = now();
    let firstTokenMs: number | undefined;
    let endpoint: string | undefined;
    let usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } } | undefined;
    // What the client saw; an error keeps the timings it got so far and no token counts.
    const record = (status: 'ok' | 'error', counts = status === 'ok' ? usage : undefined): RequestRecord => ({
      id: item.id,
      tenant: item.tenant,
      priority: item.priority,
      endpoint,
      arrivalMs,
      dispatchMs: undefined,
      firstTokenMs,
      finishMs: now(),
      promptTokens: counts?.prompt_tokens ?? item.promptLength,
      cachedTokens: counts?.prompt_tokens_details?.cached_tokens ?? 0,
      outputTokens: counts?.completion_tokens ?? 0,
      status,
    });
    try {
      const { data: stream, response } = await client.completions
        .create({ model: o.model, prompt: Array.from(materializePrompt(item)), max_tokens: item.maxOutputTokens, stream: true, stream_options: { include_usage: true } })
        .withResponse();
      endpoint = response.headers.get('x-gateway-destination-endpoint-served') ?? undefined;
      for await (const chunk of stream) {
        if (firstTokenMs === undefined && (chunk.choices[0]?.text ?? '') !== '') firstTokenMs = now();
        if (chunk.usage) usage = chunk.usage;
      }
      records.push(record('ok'));
    } catch (err) {
      errors++;
      records.push({ ...record('error'), reason: err instanceof Error ? err.message.slice(0, 200) : String(err) });
    }
    o.onProgress?.(records.length, items.length, errors);
    // Closed loop: the next turns of this conversation start after a think time.
    await Promise.all((waiting.get(item.id) ?? []).map(async (next) => {
      await sleep(next.delayMs / o.timeScale);
      await send(next);
    }));
  };

  // Roots (no dependency) start at their arrival time; dependents are started by their parent.
  await Promise.all(
    items
      .filter((i) => i.after === undefined || !byId.has(i.after))
      .map(async (item) => {
        await sleep(item.arrivalMs / o.timeScale - now());
        await send(item);
      }),
  );
  return records;
}
