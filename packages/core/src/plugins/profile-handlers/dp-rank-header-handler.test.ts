import { describe, expect, it } from 'vitest';
import { DATA_PARALLEL_RANK_HEADER, dpRankHeaderHandlerPlugin, dpWinningRanksAttribute, type RequestLifecycle } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, resultOf, schedulingRequest } from '@switchyard/core/testing';

const eps = endpoints(2);
const handler = instantiate(dpRankHeaderHandlerPlugin) as RequestLifecycle;

function headersAfter(ranks: ReadonlyMap<string, number> | undefined, target = eps[0]!): Record<string, string> {
  const request = schedulingRequest();
  if (ranks !== undefined) request.attributes.set(dpWinningRanksAttribute, ranks);
  const headers: Record<string, string> = {};
  handler.preRequest?.(cycleContext(), request, resultOf(target), headers);
  return headers;
}

describe('dp-rank-header-handler', () => {
  it("sets x-data-parallel-rank to the chosen endpoint's winning rank", () => {
    const ranks = new Map([[eps[0]!.address, 3], [eps[1]!.address, 0]]);
    expect(headersAfter(ranks)).toEqual({ [DATA_PARALLEL_RANK_HEADER]: '3' });
    expect(headersAfter(ranks, eps[1])).toEqual({ [DATA_PARALLEL_RANK_HEADER]: '0' });
  });

  it('is a no-op without ranks, or without one for the chosen endpoint (External LB)', () => {
    expect(headersAfter(undefined)).toEqual({});
    expect(headersAfter(new Map())).toEqual({});
    expect(headersAfter(new Map([[eps[1]!.address, 1]]))).toEqual({});
    expect(headersAfter(new Map([[eps[0]!.address, -1]]))).toEqual({});
  });
});
