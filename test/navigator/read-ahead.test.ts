import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchPage, ReadAhead } from '../../src/navigator/read-ahead.js';

const PAGE_1 = 'https://api.example.org/api/v1/people';
const PAGE_2 = 'https://api.example.org/api/v1/people?page=2';

/** A request the fake fetch received, answered or failed by the test. */
interface Request {
  url: string;
  signal: AbortSignal;
  onHead: ((text: string) => boolean) | undefined;
  answer: (page: string) => void;
  fail: (error: Error) => void;
}

/** A fetch whose requests wait for the test, and the requests it received. */
function fakeFetch(): { fetch: FetchPage<string>; requests: Request[] } {
  const requests: Request[] = [];
  const fetch: FetchPage<string> = (url, call) =>
    new Promise((answer, fail) => {
      requests.push({ url, signal: call.signal, onHead: call.onHead, answer, fail });
    });
  return { fetch, requests };
}

/** The request numbered `index`, or a failure saying there was none. */
function request(requests: Request[], index: number): Request {
  const found = requests[index];
  if (found === undefined) throw new Error(`no request ${index}: ${requests.length} sent`);
  return found;
}

/** The head of a page whose `_links` have arrived, and the start of its records. */
const head = (next: string) => `{"_links":{"next":{"href":"${next}"}},"_embedded":{"std:pe`;

// Rejections nobody handled while a test ran (the read-ahead must mark its own).
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});
async function expectNoUnhandledRejection(run: () => Promise<void>): Promise<void> {
  process.on('unhandledRejection', onUnhandled);
  await run();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(unhandled).toEqual([]);
}

describe('ReadAhead', () => {
  it('without a page started ahead, fetches the page when it is taken', async () => {
    const { fetch, requests } = fakeFetch();
    const reader = new ReadAhead(fetch, undefined);
    const taken = reader.take(PAGE_1);
    expect(requests.map((r) => r.url)).toEqual([PAGE_1]);
    expect(request(requests, 0).signal).toBe(reader.signal);
    // Off a page's head only when asked to.
    expect(request(requests, 0).onHead).toBeUndefined();
    request(requests, 0).answer('page 1');
    expect(await taken).toBe('page 1');
    reader.close();
  });

  it('hands over the page it started, without asking for it again', async () => {
    const { fetch, requests } = fakeFetch();
    const reader = new ReadAhead(fetch, undefined);
    await reader.start(PAGE_2);
    expect(requests.map((r) => r.url)).toEqual([PAGE_2]);
    request(requests, 0).answer('page 2');
    expect(await reader.take(PAGE_2)).toBe('page 2');
    expect(requests).toHaveLength(1);
    // Handed over once: the next take fetches.
    const again = reader.take(PAGE_2);
    expect(requests).toHaveLength(2);
    request(requests, 1).answer('page 2 again');
    expect(await again).toBe('page 2 again');
    reader.close();
  });

  it('fetches the page taken when the one started ahead is another', async () => {
    const { fetch, requests } = fakeFetch();
    const reader = new ReadAhead(fetch, undefined);
    await reader.start(PAGE_2);
    const taken = reader.take(PAGE_1);
    expect(requests.map((r) => r.url)).toEqual([PAGE_2, PAGE_1]);
    request(requests, 1).answer('page 1');
    expect(await taken).toBe('page 1');
    reader.close();
  });

  it('close cancels a page in flight, and its failure is not left unhandled', async () => {
    const { fetch, requests } = fakeFetch();
    const reader = new ReadAhead(fetch, undefined);
    await expectNoUnhandledRejection(async () => {
      await reader.start(PAGE_2);
      reader.close();
      const sent = request(requests, 0);
      expect(sent.signal.aborted).toBe(true);
      sent.fail(new Error('aborted'));
    });
  });

  it("aborts the walk's signal with the reason of the caller's, and lets go of it on close", () => {
    const caller = new AbortController();
    const reader = new ReadAhead(fakeFetch().fetch, caller.signal);
    const enough = new Error('enough');
    caller.abort(enough);
    expect(reader.signal.reason).toBe(enough);
    reader.close();

    const later = new AbortController();
    const remove = vi.spyOn(later.signal, 'removeEventListener');
    const closed = new ReadAhead(fakeFetch().fetch, later.signal);
    closed.close();
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
    expect(closed.signal.aborted).toBe(true);
  });

  describe('off the head of the page the walk waits for', () => {
    it("asks for the next page as soon as the page's links have arrived", async () => {
      const { fetch, requests } = fakeFetch();
      const reader = new ReadAhead(fetch, undefined, () => true);
      const taken = reader.take(PAGE_1);
      const onHead = request(requests, 0).onHead;
      if (onHead === undefined) throw new Error('no onHead');
      // The links have not all arrived: keep showing the head.
      expect(onHead('{"_links":{"next":{"hr')).toBe(false);
      expect(requests).toHaveLength(1);
      // A relative `next` is resolved against the page's URL.
      expect(onHead(head('/api/v1/people?page=2'))).toBe(true);
      expect(requests.map((r) => r.url)).toEqual([PAGE_1, PAGE_2]);
      request(requests, 0).answer('page 1');
      expect(await taken).toBe('page 1');
      // The parsed page links the same next: the request off the head is handed over.
      await reader.start(PAGE_2);
      request(requests, 1).answer('page 2');
      expect(await reader.take(PAGE_2)).toBe('page 2');
      expect(requests).toHaveLength(2);
      reader.close();
    });

    it('asks for nothing while the walk does not wait for the page', async () => {
      const { fetch, requests } = fakeFetch();
      const reader = new ReadAhead(fetch, undefined, () => true);
      await reader.start(PAGE_1);
      const onHead = request(requests, 0).onHead;
      // Page 1 is read ahead while the caller works on the page before: no page 3 yet.
      expect(onHead?.(head(PAGE_2))).toBe(false);
      expect(requests).toHaveLength(1);
      const taken = reader.take(PAGE_1);
      expect(onHead?.(head(PAGE_2))).toBe(true);
      expect(requests.map((r) => r.url)).toEqual([PAGE_1, PAGE_2]);
      request(requests, 0).answer('page 1');
      await taken;
      reader.close();
    });

    it('asks for no page the walk has fetched, and for one page ahead at most', async () => {
      const { fetch, requests } = fakeFetch();
      const reader = new ReadAhead(fetch, undefined, (url) => url !== PAGE_1);
      const taken = reader.take(PAGE_1);
      const onHead = request(requests, 0).onHead;
      expect(onHead?.(head(PAGE_1))).toBe(true);
      expect(requests).toHaveLength(1);
      // One page ahead at most: a head shown while one is ahead asks for no other.
      expect(onHead?.(head(PAGE_2))).toBe(true);
      expect(onHead?.(head(`${PAGE_1}?page=3`))).toBe(true);
      expect(requests.map((r) => r.url)).toEqual([PAGE_1, PAGE_2]);
      request(requests, 0).answer('page 1');
      await taken;
      reader.close();
    });

    it('drops a hint the parsed page contradicts, and leaves its failure handled', async () => {
      const { fetch, requests } = fakeFetch();
      const reader = new ReadAhead(fetch, undefined, () => true);
      await expectNoUnhandledRejection(async () => {
        const taken = reader.take(PAGE_1);
        request(requests, 0).onHead?.(head(PAGE_2));
        request(requests, 0).answer('page 1');
        await taken;
        // The parsed page links page 3: that is what is asked for and handed over.
        const page3 = `${PAGE_1}?page=3`;
        await reader.start(page3);
        expect(requests.map((r) => r.url)).toEqual([PAGE_1, PAGE_2, page3]);
        request(requests, 2).answer('page 3');
        expect(await reader.take(page3)).toBe('page 3');
        reader.close();
        request(requests, 1).fail(new Error('aborted'));
      });
    });
  });
});
