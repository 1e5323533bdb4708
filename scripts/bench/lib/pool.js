/** Runs `task(index)` for index 0..count-1 with at most `limit` running at once; resolves with the results in order. */
async function mapLimit(count, limit, task) {
  const results = new Array(count)
  let next = 0
  async function worker() {
    while (next < count) {
      const index = next++
      results[index] = await task(index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker))
  return results
}

module.exports = { mapLimit }
