/* bohnteach: what the start script and the reader share (a part of each; the build wraps
   the parts of a script in one function with CONFIG, bohnteach.upstream.wrapped): getting
   the snapshot and its files, from the Cache Storage or downloaded and unpacked (whole). */
async function fetchResponse(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

async function bytesOf(response) {
  return new Uint8Array(await response.arrayBuffer());
}

// The body of a download of NAME.snapshot or NAME.files, which the build gzipped, unpacked
// as it arrives; as it is where the host unpacked it already (Content-Encoding).
async function unpacked(response) {
  const reader = response.body.getReader();
  const head = await reader.read();
  const body = new ReadableStream({
    start(controller) {
      if (head.done) controller.close();
      else controller.enqueue(head.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const gzipped = !head.done && head.value[0] === 0x1f && head.value[1] === 0x8b;
  return gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body;
}

// The whole body of a download, unpacked: exactly `length` bytes where the manifest says how
// many (the snapshot: one that arrives in part is refused, never restored in part), else
// as many as come.
async function downloaded(response, length, what) {
  const stream = await unpacked(response);
  if (length === undefined) return bytesOf(new Response(stream));
  const bytes = new Uint8Array(length), reader = stream.getReader();
  let offset = 0, problem = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (offset + value.length > length) {
        reader.cancel().catch(() => {});
        problem = `größer als angegeben (über ${length} Bytes)`;
        break;
      }
      bytes.set(value, offset);
      offset += value.length;
    }
    if (!problem && offset !== length) problem = `unvollständig (${offset} statt ${length} Bytes)`;
  } catch (err) {
    problem = `unvollständig (${offset} statt ${length} Bytes: ${(err && err.message) || err})`;
  }
  if (problem) throw new Error(`${what} ${problem}`);
  return bytes;
}

// The snapshot and its files stay in the browser's Cache Storage after the first visit,
// marked with the build's id: a browser's HTTP cache keeps no file this large (Chromium
// an eighth of its cache, Firefox 50 MB), so every visit downloaded them again, and
// reading the cache takes a third of the time of even a local download. No Cache
// Storage (a page not served over https or from localhost, a private window that
// refuses it): downloaded each time, as before.
const CACHE = CONFIG.cache;
const ID_HEADER = CONFIG.idHeader;

// the Cache Storage, or null where there is none (merely reading `caches` throws on an
// opaque origin)
function cacheStorage() {
  try {
    return typeof caches === "undefined" ? null : caches;
  } catch (err) {
    return null;
  }
}

function openCache() {
  const storage = cacheStorage();
  return storage ? storage.open(CACHE).catch(() => null) : Promise.resolve(null);
}

// {bytes, cached} of url: from the Cache Storage if it holds the build `id`'s, else downloaded
async function whole(cacheP, url, id, length, what, fetch) {
  const cache = await cacheP;
  const hit = cache && await cache.match(url).catch(() => undefined);
  if (hit && hit.headers.get(ID_HEADER) === id) {
    const bytes = await bytesOf(hit);
    if (length === undefined || bytes.length === length) return { bytes, cached: true };
  }
  return { bytes: await downloaded(await fetch(url), length, what), cached: false };
}
