/* bohnteach: the reader of the snapshot (bohnteach-leser.js, a worker the kernel's worker
   starts; after reading.js in one function with CONFIG): answers a message
   {url, id, length, what} with {url, bytes, cached}, the bytes moved, not copied, or with
   {url, error}. */
const cacheP = openCache();
self.onmessage = async (event) => {
  const { url, id, length, what } = event.data;
  try {
    const { bytes, cached } = await whole(cacheP, url, id, length, what, fetchResponse);
    self.postMessage({ url, bytes, cached }, [bytes.buffer]);
  } catch (err) {
    self.postMessage({ url, error: String((err && err.message) || err) });
  }
};
